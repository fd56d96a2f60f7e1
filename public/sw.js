/* global self, caches */
/*
 * Cardlane's service worker (decision 048). Plain JavaScript, served from the site root so its scope
 * is the whole site, and revalidated on every check (server/app.ts). What it keeps:
 *   - the offline page (/offline, fetched without cookies, so it is nobody's) and its stylesheets;
 *   - nothing else. Pages go to the network every time and are never stored: a page is personal.
 * When a page cannot be fetched for lack of network, the offline page is shown instead, with the
 * balance this person last saw on this device (written by the page, app/utils/last-seen.ts) and
 * the time they saw it, marked as possibly out of date. Sign-out clears it (Clear-Site-Data).
 */

// Must match app/utils/last-seen.ts.
const LAST_SEEN_CACHE = 'cardlane-last-seen'
const LAST_SEEN_KEY = '/__last-seen'
const OFFLINE_CACHE = 'cardlane-offline'
const OFFLINE_URL = '/offline'
const LAST_SEEN_MARK = '<!--last-seen-->'

self.addEventListener('install', (event) => {
  event.waitUntil(precacheOffline().then(() => self.skipWaiting()))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim())
})

/** The offline page as an anonymous visitor gets it, and the stylesheets it links. */
async function precacheOffline() {
  const response = await fetch(OFFLINE_URL, { credentials: 'omit', cache: 'no-store' })
  if (!response.ok) throw new Error('The offline page could not be fetched')
  const html = await response.clone().text()
  const styles = [...html.matchAll(/<link rel="stylesheet" href="(\/assets\/[^"]+)"/g)].map((match) => match[1])
  // A fresh cache each install: the previous deploy's page and styles go with it.
  await caches.delete(OFFLINE_CACHE)
  const cache = await caches.open(OFFLINE_CACHE)
  await cache.addAll(styles.map((href) => new Request(href, { credentials: 'omit' })))
  await cache.put(OFFLINE_URL, response)
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return
  if (request.mode === 'navigate') {
    // Network only; the offline page when there is no network. A server's error page is still its answer.
    event.respondWith(fetch(request).catch(() => offlineResponse()))
    return
  }
  // The offline page's stylesheets from the cache when there; everything else as the browser does it.
  if (new URL(request.url).pathname.startsWith('/assets/')) {
    event.respondWith(caches.match(request, { cacheName: OFFLINE_CACHE }).then((hit) => hit || fetch(request)))
  }
})

/** The offline page with the last seen balance put in its place. */
async function offlineResponse() {
  const page = await caches.match(OFFLINE_URL, { cacheName: OFFLINE_CACHE })
  if (!page) return Response.error()
  const lastSeen = await readLastSeen()
  const html = (await page.text()).replace(LAST_SEEN_MARK, lastSeen ? lastSeenHtml(lastSeen, self.navigator.language) : '')
  return new Response(html, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } })
}

async function readLastSeen() {
  try {
    const hit = await caches.match(LAST_SEEN_KEY, { cacheName: LAST_SEEN_CACHE })
    return hit ? parseLastSeen(await hit.json()) : null
  } catch {
    return null
  }
}

/** { balance: "₦1,500.00", at: epoch ms } as the page wrote it, or null for anything else. */
function parseLastSeen(value) {
  if (!value || typeof value.balance !== 'string' || typeof value.at !== 'number' || !Number.isFinite(value.at)) return null
  if (value.balance.length > 40) return null
  return { balance: value.balance, at: value.at }
}

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

/** The balance card of the offline page: the amount, when it was seen, and that it may have changed. */
function lastSeenHtml({ balance, at }, locale) {
  const when = new Date(at)
  let seen
  try {
    seen = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(when)
  } catch {
    seen = when.toISOString()
  }
  return (
    '<section class="cl-card cl-offline__last-seen" aria-labelledby="last-seen-title">' +
    '<h2 class="cl-card__title" id="last-seen-title">Your balance when you last looked</h2>' +
    `<p class="cl-amount cl-amount--hero">${escapeHtml(balance)}</p>` +
    `<p>as of <time datetime="${when.toISOString()}">${escapeHtml(seen)}</time></p>` +
    '<p class="cl-badge cl-badge--warning">May be out of date</p>' +
    '<p class="cl-muted cl-small">It may have changed since: payments and withdrawals go on while you are offline.</p>' +
    '</section>'
  )
}

/**
 * Where a notification leads: a path on this site only. A pushed absolute or protocol-relative
 * address, or anything that is not a path, leads to Home.
 */
function notificationTarget(url, origin) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return '/'
  try {
    const target = new URL(url, origin)
    return target.origin === origin ? target.pathname + target.search + target.hash : '/'
  } catch {
    return '/'
  }
}

self.addEventListener('push', (event) => {
  let payload = {}
  try {
    payload = event.data ? event.data.json() : {}
  } catch {
    payload = {}
  }
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'Cardlane'
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    data: { url: notificationTarget(payload.url, self.location.origin) },
  }
  if (typeof payload.tag === 'string' && payload.tag) options.tag = payload.tag
  event.waitUntil(self.registration.showNotification(title, options))
})

/** A window of this site already open is focused and sent to the target; otherwise a new one opens. */
async function openTarget(clients, url, origin) {
  const target = notificationTarget(url, origin)
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true })
  const open = windows.find((client) => new URL(client.url).origin === origin)
  if (open) {
    const focused = await open.focus()
    // navigate() works on a window this worker controls; another is left focused where it was.
    if (focused && 'navigate' in focused) await focused.navigate(target).catch(() => undefined)
    return focused
  }
  return clients.openWindow(target)
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = event.notification.data && event.notification.data.url
  event.waitUntil(openTarget(self.clients, url, self.location.origin))
})

/**
 * The push service replaced or ended this device's subscription: subscribe again with the same
 * key and register it as the opt-in does (a worker's same-origin fetch carries the session
 * cookie). Signed out, or the site away, it waits for the next visit to the settings page; the old
 * endpoint is dropped by the api when the push service answers 404 or 410 for it.
 */
async function resubscribe(registration, oldSubscription, newSubscription, send) {
  const subscription =
    newSubscription ||
    (oldSubscription && oldSubscription.options ? await registration.pushManager.subscribe(oldSubscription.options) : null)
  if (!subscription) return false
  const { endpoint, keys } = subscription.toJSON()
  if (!endpoint || !keys || !keys.p256dh || !keys.auth) return false
  const res = await send('/account/push', {
    method: 'POST',
    body: new URLSearchParams({ endpoint, p256dh: keys.p256dh, auth: keys.auth }),
    credentials: 'same-origin',
    redirect: 'manual',
    headers: { Accept: 'application/json' },
  })
  return res.ok
}

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    resubscribe(self.registration, event.oldSubscription, event.newSubscription, (url, init) => fetch(url, init)).catch(() => false),
  )
})
