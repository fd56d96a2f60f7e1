// "Turn on push on this device" (issue 27 §1): on the notification settings and, as a card, after a
// card is submitted. It asks the browser for permission only when the person taps it, never on a
// page load. What the browser can do is known only in the browser, so the server renders the
// sentence for a page without JavaScript (settings) or nothing (the card), and the browser decides.
import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { notifyMessages as M } from '~/utils/notify-messages'
import { workerUrl } from '~/utils/service-worker'
import { ActionToast } from './action-toast'
import { Button } from './button'
import { Card } from './card'
import { useHydrated } from './ui'

/** The web's resource route: GET the VAPID key, POST the subscription (routes/account_.push.tsx). */
const PUSH_ROUTE = '/account/push'
/** The service worker that shows pushes (public/sw.js, the installable app's). */
/** "Not now" on the card, remembered on this device only. */
const DISMISSED_KEY = 'cl-push-card-dismissed'

type State = 'checking' | 'ready' | 'working' | 'on' | 'unsupported' | 'ios' | 'denied' | 'failed'

type SubscribeReply = { error?: string; device?: string; toast?: Parameters<typeof ActionToast>[0]['toast'] }

function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext
}

/** Where push stands on this device, without asking the person anything. */
async function currentState(): Promise<State> {
  if (!supported()) return /iPhone|iPad|iPod/.test(navigator.userAgent) ? 'ios' : 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  const registration = await navigator.serviceWorker.getRegistration('/')
  const subscription = await registration?.pushManager.getSubscription()
  return subscription && Notification.permission === 'granted' ? 'on' : 'ready'
}

/** The registration once its worker is active; a worker that fails to install ends it as an error. */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const registration =
    (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register(workerUrl(), { scope: '/' }))
  const worker = registration.installing ?? registration.waiting
  if (registration.active || !worker) return registration
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (worker.state === 'activated') resolve()
      else if (worker.state === 'redundant') reject(new Error('the service worker did not install'))
    }
    worker.addEventListener('statechange', check)
    check()
  })
  return registration
}

/** The VAPID key as pushManager.subscribe takes it (base64url text to bytes). */
function keyBytes(base64url: string): Uint8Array {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

/** The browser's subscription, or the sentence that says why there is none. */
async function subscribe(): Promise<PushSubscription | { state: State; message: string }> {
  const permission = await Notification.requestPermission()
  if (permission === 'denied') return { state: 'denied', message: M.pushDenied }
  if (permission !== 'granted') return { state: 'ready', message: M.pushDismissed }
  let registration: ServiceWorkerRegistration
  try {
    registration = await activeRegistration()
  } catch {
    return { state: 'failed', message: M.pushNotReachable }
  }
  const key = (await fetch(PUSH_ROUTE, { headers: { Accept: 'application/json' } })
    .then((r) => r.json())
    .catch(() => ({ error: M.subscribeFailed }))) as { publicKey?: string; error?: string }
  if (!key.publicKey) return { state: 'failed', message: key.error ?? M.subscribeFailed }
  try {
    return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.publicKey) })
  } catch {
    // Headless browsers and networks that block the push service end here.
    return { state: 'failed', message: M.pushNotReachable }
  }
}

export function PushOptIn({ variant }: { variant: 'settings' | 'card' }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<SubscribeReply>()
  const [state, setState] = useState<State>('checking')
  const [message, setMessage] = useState('')
  const [dismissed, setDismissed] = useState(false)

  useEffect(() => {
    let live = true
    currentState()
      .then((s) => live && setState(s))
      .catch(() => live && setState('unsupported'))
    try {
      setDismissed(window.localStorage.getItem(DISMISSED_KEY) === '1')
    } catch {
      // Storage blocked: the card shows.
    }
    return () => {
      live = false
    }
  }, [])

  // The api's answer to the subscription: on, or its refusal (the browser's subscription is dropped then).
  const reply = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (!reply) return
    if (reply.error) {
      setState('failed')
      setMessage(reply.error)
      void navigator.serviceWorker
        .getRegistration('/')
        .then((r) => r?.pushManager.getSubscription())
        .then((s) => s?.unsubscribe())
        .catch(() => undefined)
    } else {
      setState('on')
      setMessage('')
    }
  }, [reply])

  async function turnOn() {
    setState('working')
    setMessage('')
    try {
      const made = await subscribe()
      if ('state' in made) {
        setState(made.state)
        setMessage(made.message)
        return
      }
      const { endpoint, keys } = made.toJSON()
      fetcher.submit(
        { endpoint: endpoint ?? '', p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
        { method: 'post', action: PUSH_ROUTE },
      )
    } catch {
      setState('failed')
      setMessage(M.subscribeFailed)
    }
  }

  function notNow() {
    setDismissed(true)
    try {
      window.localStorage.setItem(DISMISSED_KEY, '1')
    } catch {
      // Storage blocked: hidden for this page only.
    }
  }

  const busy = state === 'working' || fetcher.state !== 'idle'
  const button = (
    <Button
      type="button"
      variant={variant === 'card' ? 'primary' : 'secondary'}
      block
      icon="bell"
      pending={busy}
      onClick={() => void turnOn()}
    >
      Turn on push on this device
    </Button>
  )
  const said = message ? <p className="cl-push__note">{message}</p> : null

  if (variant === 'card') {
    // Only where push can be turned on and is not on yet; the person may have closed it before.
    const justTurnedOn = state === 'on' && reply?.device
    if (!hydrated || dismissed || !(['ready', 'working', 'failed'].includes(state) || justTurnedOn)) return null
    // Drawn with the shell's classes only: Order Submitted's stylesheet is at its budget.
    return (
      <Card title="Get told when it’s paid" className="cl-stack">
        <p className="cl-muted">
          A notification on this device when the card is paid, offered lower or rejected, even with the app closed.
        </p>
        <div aria-live="polite">{justTurnedOn ? M.subscribed(reply.device!) : message}</div>
        {justTurnedOn ? null : (
          <div className="cl-stack">
            {button}
            <Button type="button" variant="ghost" block onClick={notNow}>
              Not now
            </Button>
          </div>
        )}
      </Card>
    )
  }

  const sentence = !hydrated
    ? M.pushNeedsScript
    : state === 'unsupported'
      ? M.pushUnsupported
      : state === 'ios'
        ? M.pushUnsupportedIos
        : state === 'denied'
          ? message || M.pushDenied
          : state === 'on'
            ? M.pushOnHere
            : ''
  return (
    <div className="cl-push">
      <div aria-live="polite">
        {sentence ? <p className="cl-push__note">{sentence}</p> : null}
        {state === 'ready' || state === 'working' || state === 'failed' ? said : null}
      </div>
      {hydrated && (state === 'ready' || state === 'working' || state === 'failed') ? button : null}
      <ActionToast toast={reply?.toast} />
    </div>
  )
}
