import { type AppLoadContext, data } from '@remix-run/node'
import { NOTIFY_CHANNELS, NOTIFY_KINDS, notifyApi as api, type NotifyChannel, type NotifyKind } from '#contract/notify'
import { formatRefusal, Refusals } from '#contract/refusals'
import { requireToken } from '~/utils/auth.server'
import { readForm, toastNow } from '~/utils/form.server'
import { accessMessages } from '~/utils/messages'
import { formatDay, notifyMessages as M } from '~/utils/notify-messages'
import { redirectWithToast } from '~/utils/toast.server'
import { callApi } from './call-api.server'
import { upstream } from './client.server'
import { flow, loaded } from './flow.server'
import { orderTimeZone } from './orders.server'

/**
 * Notifications beyond the app (issue 27): the person's choices per kind of event, the devices
 * that get push, the push opt-in and the e-mails' unsubscribe link. Each screen's loader and
 * action ask this module only (decision 034).
 */
export const SETTINGS_PATH = '/account/notifications'

const notifySettingsFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.loadFailed, () => callApi(request, context, api.notifySettings, {}))

/** The settings screen: the switches, and the devices that get push with when each last got one. */
export async function notifySettingsPage(request: Request, context: AppLoadContext) {
  await requireToken(request)
  // One read for the switches and the devices: with the root's user index (the time zone, shared
  // through the request memo) the screen stays within two api calls.
  const [settings, timeZone] = await Promise.all([notifySettingsFlow(request, context), orderTimeZone(request, context)])
  const { kinds, pushAmounts, subscriptions } = loaded(settings)
  const devices = subscriptions.map((s) => ({
    id: s.id,
    name: s.name,
    lastUsed: s.lastUsedAt === null ? M.neverUsed : M.lastUsed(formatDay(s.lastUsedAt, timeZone)),
  }))
  return { kinds, pushAmounts, devices }
}

const isKind = (v: unknown): v is NotifyKind => NOTIFY_KINDS.includes(v as NotifyKind)
const isChannel = (v: unknown): v is NotifyChannel => NOTIFY_CHANNELS.includes(v as NotifyChannel)

/**
 * The settings form's posts. Without JavaScript the whole form (`save`) and each device's Remove
 * are posts answered with a redirect back and a toast; with JavaScript each switch posts alone
 * (`switch`, `amounts`) through a fetcher and gets its toast in the answer, the page staying put.
 * A locked kind's e-mail is whatever was posted: the api refuses turning it off.
 */
export async function notifySettingsAction(request: Request, context: AppLoadContext) {
  await requireToken(request)
  const form = await readForm(context, request)
  const intent = form.get('intent')
  if (intent === 'switch' || intent === 'amounts') {
    const on = form.get('on') === 'true'
    const kind = form.get('kind')
    const channel = form.get('channel')
    const label = String(form.get('label') ?? '').slice(0, 80) || M.saved
    const body = intent === 'amounts' ? { pushAmounts: on } : isKind(kind) && isChannel(channel) ? { kind, channel, on } : null
    if (!body) return data({ toast: toastNow({ type: 'error', message: accessMessages.formUnreadable }) }, { status: 400 })
    const set = await flow(context, M.loadFailed, () => callApi(request, context, api.setNotifyPreferences, body))
    if (!set.success) return data({ toast: toastNow({ type: 'error', message: set.msg }) }, { status: 400 })
    return { toast: toastNow({ type: 'success', message: on ? M.switchedOn(label) : M.switchedOff(label) }) }
  }
  if (intent === 'remove') {
    const id = String(form.get('id') ?? '')
    const removed = await flow(context, M.removeFailed, () => callApi(request, context, api.pushRemove, { id }))
    return redirectWithToast(
      request,
      SETTINGS_PATH,
      removed.success ? { type: 'success', message: M.removed } : { type: 'error', message: removed.msg },
    )
  }
  if (intent !== 'save') return redirectWithToast(request, SETTINGS_PATH, { type: 'error', message: accessMessages.formUnreadable })
  // The whole form; a box not ticked is off.
  const kinds = NOTIFY_KINDS.map((kind) => ({ kind, push: form.has(`${kind}.push`), email: form.has(`${kind}.email`) }))
  const saved = await flow(context, M.loadFailed, () =>
    callApi(request, context, api.setNotifyPreferences, { kinds, pushAmounts: form.has('pushAmounts') }),
  )
  return redirectWithToast(
    request,
    SETTINGS_PATH,
    saved.success ? { type: 'success', message: M.saved } : { type: 'error', message: saved.msg },
  )
}

/** The VAPID public key the browser subscribes with (the opt-in's first call, on a tap). */
export async function pushKeyAnswer(request: Request, context: AppLoadContext) {
  await requireToken(request)
  const key = await flow(context, M.subscribeFailed, () => callApi(request, context, api.pushKey, {}))
  return key.success ? Response.json({ publicKey: key.data.publicKey }) : Response.json({ error: key.msg }, { status: 503 })
}

/**
 * The browser's subscription, handed to the api with the User-Agent this request came with (the
 * api names the device from it: the header, not anything the page's script says about itself).
 */
export async function pushSubscribeAnswer(request: Request, context: AppLoadContext) {
  await requireToken(request)
  const form = await readForm(context, request)
  const text = (name: string) => String(form.get(name) ?? '')
  const userAgent = request.headers.get('user-agent')?.slice(0, 1024) || undefined
  const body = { endpoint: text('endpoint'), keys: { p256dh: text('p256dh'), auth: text('auth') }, userAgent }
  const made = await flow(context, M.subscribeFailed, () => callApi(request, context, api.pushSubscribe, body))
  if (!made.success) return Response.json({ error: made.msg }, { status: 400 })
  return Response.json({ device: made.data.name, toast: toastNow({ type: 'success', message: M.subscribed(made.data.name) }) })
}

/**
 * The unsubscribe link's calls. Its token is the only credential (RFC 8058: a mail client's POST
 * carries no cookie), so the api is asked without the session's token: whoever is signed in in
 * this browser has nothing to do with whose e-mails stop.
 */
const byLink = (context: AppLoadContext) => ({
  clientIp: context.clientAddress,
  requestId: context.requestId,
  observe: context.observeUpstream,
})

type UnsubscribeAnswer = { info: { label: string; email: string; subscribed: boolean } } | { refused: string }

/** The api's refusal (a token it did not sign) as it words it; a token it cannot read is a bad link too; anything else is the api away (503). */
function unsubscribeFailure(failure: { msg: string; kind?: string; status?: number }) {
  if (failure.kind === 'refused') return data<UnsubscribeAnswer>({ refused: failure.msg }, { status: 400 })
  if (failure.kind === 'http' && failure.status === 400)
    return data<UnsubscribeAnswer>({ refused: formatRefusal(Refusals.UNSUBSCRIBE_TOKEN_INVALID) }, { status: 400 })
  return data<UnsubscribeAnswer>({ refused: failure.msg || M.unsubscribeFailed }, { status: 503 })
}

export async function unsubscribePage(context: AppLoadContext, token: string) {
  const got = await flow(
    context,
    M.unsubscribeFailed,
    async () => (await upstream.call(api.unsubscribeInfo, { token }, byLink(context))).data,
  )
  return got.success ? data<UnsubscribeAnswer>({ info: got.data }) : unsubscribeFailure(got)
}

/**
 * The page's button and a mail client's one-click POST send the same body,
 * `List-Unsubscribe=One-Click`; nothing else is taken here (the cross-site guard lets other sites
 * post to this path only: server/request-guard.ts).
 */
export async function unsubscribeAnswer(request: Request, context: AppLoadContext, token: string) {
  const form = await readForm(context, request)
  if (form.get('List-Unsubscribe') !== 'One-Click' || [...form.keys()].length !== 1)
    return data<UnsubscribeAnswer>({ refused: M.unsubscribeOneClickOnly }, { status: 400 })
  const done = await flow(context, M.unsubscribeFailed, async () => (await upstream.call(api.unsubscribe, { token }, byLink(context))).data)
  return done.success ? data<UnsubscribeAnswer>({ info: done.data }) : unsubscribeFailure(done)
}
