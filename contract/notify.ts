import { z } from 'zod'
import { get, noQuery, post } from './endpoint'

/**
 * Notifications beyond the app (issue 27 §1–2, decision 046): the same events the Notifications
 * screen lists also reach the person by web push and e-mail, as they choose per kind of event.
 * Security events (PIN, password, new device, new bank account) always go by e-mail.
 *
 * Push: the web asks the api for its VAPID public key, subscribes the browser with it, and hands
 * the subscription to `pushSubscribe` with the browser's User-Agent; the api names the device from
 * it ("Chrome on Android, added 12 Nov"). The endpoint and keys never come back.
 *
 * Unsubscribe: every e-mail of an event kind that can be turned off carries
 * `List-Unsubscribe: <{web}/unsubscribe/{token}>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
 * (RFC 8058). The web's page at that URL shows `unsubscribeInfo` and its POST action calls
 * `unsubscribe`; neither needs a sign-in. The token is signed by the api and names one person and one
 * kind; it is a secret: the web masks it in its log paths.
 */

/** The kinds of event a person chooses channels for. The order is the order the Account screen lists them. */
export const NOTIFY_KINDS = [
  'order_paid',
  'order_offer',
  'order_rejected',
  'withdrawal_paid',
  'withdrawal_failed',
  'support',
  'security',
] as const
export type NotifyKind = (typeof NOTIFY_KINDS)[number]

export const NOTIFY_CHANNELS = ['push', 'email'] as const
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number]

export const notifyKindField = z.enum(NOTIFY_KINDS, {
  errorMap: () => ({ message: `kind must be one of ${NOTIFY_KINDS.join(', ')}` }),
})

const channelField = z.enum(NOTIFY_CHANNELS, { errorMap: () => ({ message: 'channel must be push or email' }) })
const boolField = (name: string) =>
  z.boolean({ required_error: `${name} is required`, invalid_type_error: `${name} must be true or false` })

export const notifyPreferenceSchema = z.object({
  kind: z.string(),
  /** What the Account screen calls it ("Order paid"). */
  label: z.string(),
  push: z.boolean(),
  email: z.boolean(),
  /** E-mail cannot be turned off for this kind (security events); push can. */
  locked: z.boolean(),
})
export type NotifyPreference = z.infer<typeof notifyPreferenceSchema>

export const notifyPreferencesData = z.object({
  kinds: z.array(notifyPreferenceSchema),
  /** Whether a push may show amounts (on a lock screen anyone can read); off unless the person turns it on. */
  pushAmounts: z.boolean(),
})
export type NotifyPreferencesData = z.infer<typeof notifyPreferencesData>

/**
 * One switch (`{kind, channel, on}`), the amounts switch (`{pushAmounts}`), or the whole set
 * (`{kinds: [...]}`, with or without `pushAmounts`; kinds it leaves out keep their setting).
 * Turning a locked kind's e-mail off is refused (NOTIFY_LOCKED) and changes nothing.
 */
export const setNotifyPreferencesBody = z
  .object({
    kind: notifyKindField.optional(),
    channel: channelField.optional(),
    on: boolField('on').optional(),
    kinds: z
      .array(z.object({ kind: notifyKindField, push: boolField('push'), email: boolField('email') }).strict(), {
        invalid_type_error: 'kinds must be a list',
      })
      .max(NOTIFY_KINDS.length * 2, 'kinds lists each kind once')
      .optional(),
    pushAmounts: boolField('pushAmounts').optional(),
  })
  .strict()
  .refine(
    (b) => {
      const one = b.kind !== undefined || b.channel !== undefined || b.on !== undefined
      if (one) return b.kind !== undefined && b.channel !== undefined && b.on !== undefined && b.kinds === undefined
      return b.kinds !== undefined || b.pushAmounts !== undefined
    },
    { message: 'Send kind, channel and on for one switch, or kinds (and/or pushAmounts) for the whole set' },
  )

export const pushKeyData = z.object({
  /** The VAPID public key (base64url, uncompressed P-256 point): `applicationServerKey` of pushManager.subscribe. */
  publicKey: z.string(),
})

const base64url = (name: string, max: number) =>
  z
    .string({ required_error: `${name} is required`, invalid_type_error: `${name} must be text` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${name} must be base64url`)

/** What `PushSubscription.toJSON()` gives (endpoint and keys), and the browser's User-Agent header as the web received it. */
export const pushSubscribeBody = z
  .object({
    endpoint: z
      .string({ required_error: 'endpoint is required', invalid_type_error: 'endpoint must be text' })
      .trim()
      .max(2048, 'endpoint is too long')
      .url('endpoint must be a URL'),
    keys: z
      .object(
        { p256dh: base64url('keys.p256dh', 200), auth: base64url('keys.auth', 64) },
        { required_error: 'keys is required', invalid_type_error: 'keys must be an object' },
      )
      .strict(),
    /** What `toJSON()` also carries; not used (the push service says when a subscription is gone). */
    expirationTime: z.number({ invalid_type_error: 'expirationTime must be a number' }).nullable().optional(),
    /** The browser's User-Agent; the api names the device from it. Optional: without it the device is "A browser". */
    userAgent: z.string({ invalid_type_error: 'userAgent must be text' }).max(1024, 'userAgent is too long').optional(),
  })
  .strict()

export const pushSubscriptionSchema = z.object({
  id: z.string(),
  /** "Chrome on Android, added 12 Nov". */
  name: z.string(),
  createdAt: z.number().int(),
  /** The last push the push service accepted for it; null before the first. */
  lastUsedAt: z.number().int().nullable(),
})
export type PushSubscriptionInfo = z.infer<typeof pushSubscriptionSchema>

export const pushSubscriptionsData = z.object({ subscriptions: z.array(pushSubscriptionSchema) })
export type PushSubscriptionsData = z.infer<typeof pushSubscriptionsData>

/** The settings screen in one answer: the switches and the devices that get push. */
export const notifySettingsData = notifyPreferencesData.merge(pushSubscriptionsData)
export type NotifySettingsData = z.infer<typeof notifySettingsData>

export const pushRemoveBody = z
  .object({
    id: z
      .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
      .trim()
      .min(1, 'id is required')
      .max(64, 'id is not a device id')
      .regex(/^[A-Za-z0-9_-]+$/, 'id is not a device id'),
  })
  .strict()

const tokenField = z
  .string({ required_error: 'token is required', invalid_type_error: 'token must be text' })
  .trim()
  .min(1, 'token is required')
  .max(512, 'This unsubscribe link is not valid')

export const unsubscribeQuery = z.object({ token: tokenField })
export const unsubscribeBody = z.object({ token: tokenField }).strict()

export const unsubscribeData = z.object({
  kind: z.string(),
  /** "Order paid": what the e-mails that stop are about. */
  label: z.string(),
  /** The address the e-mails go to, masked ("a•••@example.com"). */
  email: z.string(),
  /** Whether e-mail for this kind is on now (false after `unsubscribe`). */
  subscribed: z.boolean(),
})
export type UnsubscribeData = z.infer<typeof unsubscribeData>

export const notifyApi = {
  notifyPreferences: get('/v1/user/notifyPreferences', 'user', noQuery, notifyPreferencesData),
  setNotifyPreferences: post('/v1/user/setNotifyPreferences', 'user', setNotifyPreferencesBody, notifyPreferencesData),
  pushKey: get('/v1/push/key', 'public', noQuery, pushKeyData),
  pushSubscribe: post('/v1/user/pushSubscribe', 'user', pushSubscribeBody, pushSubscriptionSchema),
  pushSubscriptions: get('/v1/user/pushSubscriptions', 'user', noQuery, pushSubscriptionsData),
  notifySettings: get('/v1/user/notifySettings', 'user', noQuery, notifySettingsData),
  pushRemove: post('/v1/user/pushRemove', 'user', pushRemoveBody, pushSubscriptionsData),
  unsubscribeInfo: get('/v1/notify/unsubscribeInfo', 'public', unsubscribeQuery, unsubscribeData),
  unsubscribe: post('/v1/notify/unsubscribe', 'public', unsubscribeBody, unsubscribeData),
}
