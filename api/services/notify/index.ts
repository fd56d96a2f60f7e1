import type { z } from 'zod'
import { NOTIFY_KINDS } from '#contract/notify'
import type {
  notifyApi,
  NotifyKind,
  NotifyPreferencesData,
  NotifySettingsData,
  PushSubscriptionInfo,
  PushSubscriptionsData,
  UnsubscribeData,
} from '#contract/notify'
import { Refusals } from '#contract/refusals'
import type { User } from '../../db/schema'
import type { ApiDeps } from '../../deps'
import { refuse } from '../../lib/envelope'
import {
  ownSubscriptions,
  preferenceOf,
  preferencesOf,
  removeSubscription,
  saveSubscription,
  setPreference,
  setPushAmounts,
} from '../../models/notify-settings'
import { findUserById } from '../../models/users'
import { deviceName } from './device-name'
import { LOCKED_KINDS, NOTIFY_LABELS } from './kinds'
import { readUnsubscribeToken } from './unsubscribe-token'

/** Preferences, push subscriptions and one-click unsubscribe (contract/notify.ts, decision 046). */

type SetBody = z.output<typeof notifyApi.setNotifyPreferences.body>
type SubscribeBody = z.output<typeof notifyApi.pushSubscribe.body>

export async function preferences(deps: ApiDeps, user: User): Promise<NotifyPreferencesData> {
  const [prefs, fresh] = await Promise.all([preferencesOf(deps.db, user.id), findUserById(deps.db, user.id)])
  return {
    kinds: NOTIFY_KINDS.map((kind) => {
      const p = prefs.get(kind) ?? { push: true, email: true }
      const locked = LOCKED_KINDS.includes(kind)
      return { kind, label: NOTIFY_LABELS[kind], push: p.push, email: locked || p.email, locked }
    }),
    pushAmounts: Number(fresh?.push_amounts ?? 0) === 1,
  }
}

export async function setPreferences(deps: ApiDeps, user: User, body: SetBody): Promise<NotifyPreferencesData> {
  const changes: { kind: NotifyKind; push?: boolean; email?: boolean }[] = []
  if (body.kind && body.channel && body.on !== undefined) changes.push({ kind: body.kind, [body.channel]: body.on })
  for (const k of body.kinds ?? []) changes.push(k)
  // All or nothing: one refused switch changes none.
  if (changes.some((c) => c.email === false && LOCKED_KINDS.includes(c.kind))) throw refuse(Refusals.NOTIFY_LOCKED)
  const now = deps.now()
  for (const c of changes) {
    const current = await preferenceOf(deps.db, user.id, c.kind)
    await setPreference(deps.db, user.id, c.kind, { push: c.push ?? current.push, email: c.email ?? current.email }, now)
  }
  if (body.pushAmounts !== undefined) await setPushAmounts(deps.db, user.id, body.pushAmounts, now)
  return preferences(deps, user)
}

export async function pushKey(deps: ApiDeps): Promise<{ publicKey: string }> {
  const publicKey = deps.notify.push.publicKey
  if (!publicKey) throw refuse(Refusals.PUSH_UNAVAILABLE)
  return { publicKey }
}

const toInfo = (r: { id: string; name: string; created_at: number; last_used_at: number | null }): PushSubscriptionInfo => ({
  id: r.id,
  name: r.name,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
})

export async function subscribe(deps: ApiDeps, user: User, body: SubscribeBody): Promise<PushSubscriptionInfo> {
  if (!deps.notify.push.publicKey) throw refuse(Refusals.PUSH_UNAVAILABLE)
  const url = new URL(body.endpoint)
  // Push services are https; plain http only outside production (the tests' push service).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !deps.config.notify.production))
    throw refuse(Refusals.PUSH_ENDPOINT_REFUSED)
  const p256dh = Buffer.from(body.keys.p256dh, 'base64url')
  const auth = Buffer.from(body.keys.auth, 'base64url')
  if (p256dh.length !== 65 || p256dh[0] !== 4 || auth.length !== 16) throw refuse(Refusals.PUSH_KEYS_INVALID)
  const now = deps.now()
  const id = await saveSubscription(
    deps.db,
    { userId: user.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, name: deviceName(body.userAgent, now) },
    now,
  )
  const row = (await ownSubscriptions(deps.db, user.id)).find((r) => r.id === id)
  return toInfo(row!)
}

export async function subscriptions(deps: ApiDeps, user: User): Promise<PushSubscriptionsData> {
  return { subscriptions: (await ownSubscriptions(deps.db, user.id)).map(toInfo) }
}

/** The settings screen's one read: the person's switches and their push devices. */
export async function settings(deps: ApiDeps, user: User): Promise<NotifySettingsData> {
  return { ...(await preferences(deps, user)), ...(await subscriptions(deps, user)) }
}

export async function removePush(deps: ApiDeps, user: User, id: string): Promise<PushSubscriptionsData> {
  if (!(await removeSubscription(deps.db, user.id, id))) throw refuse(Refusals.PUSH_SUBSCRIPTION_NOT_FOUND)
  return subscriptions(deps, user)
}

/** "a•••@example.com": enough for the person to know the address, not enough for a stranger with the link. */
const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@')
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`
}

async function fromToken(deps: ApiDeps, token: string) {
  const named = readUnsubscribeToken(deps.config.selling.codesKey, token)
  // A security kind never gets a token; one that names it was not made here.
  if (!named || LOCKED_KINDS.includes(named.kind)) throw refuse(Refusals.UNSUBSCRIBE_TOKEN_INVALID)
  const user = await findUserById(deps.db, named.userId)
  if (!user) throw refuse(Refusals.UNSUBSCRIBE_TOKEN_INVALID)
  return { user, kind: named.kind }
}

export async function unsubscribeInfo(deps: ApiDeps, token: string): Promise<UnsubscribeData> {
  const { user, kind } = await fromToken(deps, token)
  const p = await preferenceOf(deps.db, user.id, kind)
  return { kind, label: NOTIFY_LABELS[kind], email: maskEmail(user.email), subscribed: p.email }
}

/** RFC 8058 one-click: turns the kind's e-mail off; again changes nothing. */
export async function unsubscribe(deps: ApiDeps, token: string): Promise<UnsubscribeData> {
  const { user, kind } = await fromToken(deps, token)
  const p = await preferenceOf(deps.db, user.id, kind)
  if (p.email) await setPreference(deps.db, user.id, kind, { push: p.push, email: false }, deps.now())
  return { kind, label: NOTIFY_LABELS[kind], email: maskEmail(user.email), subscribed: false }
}
