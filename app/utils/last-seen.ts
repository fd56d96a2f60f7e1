// The balance this person last saw, kept on this device only for the offline page (public/sw.js,
// decision 048): Cache Storage, which the service worker reads and Clear-Site-Data at sign-out
// empties. A signed-out page forgets it too, for a browser that ignores that header.
import { useEffect } from 'react'

// Must match public/sw.js.
const LAST_SEEN_CACHE = 'cardlane-last-seen'
const LAST_SEEN_KEY = '/__last-seen'

const hasCaches = () => typeof window !== 'undefined' && 'caches' in window

/** Remembers the balance as shown ("₦1,500.00") and when; the offline page says "as of" that time. */
export function useLastSeenBalance(balance: string) {
  useEffect(() => {
    if (!hasCaches()) return
    const body = JSON.stringify({ balance, at: Date.now() })
    caches
      .open(LAST_SEEN_CACHE)
      .then((cache) => cache.put(LAST_SEEN_KEY, new Response(body, { headers: { 'Content-Type': 'application/json' } })))
      .catch(() => undefined)
  }, [balance])
}

export function forgetLastSeen() {
  if (hasCaches()) caches.delete(LAST_SEEN_CACHE).catch(() => undefined)
}
