import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { NotifyKind } from '#contract/notify'
import { isNotifyKind } from './kinds'

/**
 * One-click unsubscribe tokens (decision 046): `<base64url(userId:kind)>.<HMAC>`, signed with a
 * key derived from CODES_KEY, so checking one needs no table. A token only ever turns one kind of
 * e-mail off for one person; it never expires (an old e-mail's link still works, RFC 8058 asks
 * for that). A secret all the same: it is never logged.
 */
const keyOf = (secret: string) => Buffer.from(hkdfSync('sha256', secret, 'cardlane/unsubscribe', 'unsubscribe-token', 32))

const mac = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body, 'utf8').digest().subarray(0, 18)

export function unsubscribeToken(secret: string, userId: string, kind: NotifyKind): string {
  const body = Buffer.from(`${userId}:${kind}`, 'utf8').toString('base64url')
  return `${body}.${mac(secret, body).toString('base64url')}`
}

/** The person and kind a token names, or undefined when the api did not sign it. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; kind: NotifyKind } | undefined {
  const [body, sig, extra] = token.split('.')
  if (!body || !sig || extra !== undefined) return undefined
  const given = Buffer.from(sig, 'base64url')
  const expected = mac(secret, body)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const text = Buffer.from(body, 'base64url').toString('utf8')
  const at = text.lastIndexOf(':')
  const userId = text.slice(0, at)
  const kind = text.slice(at + 1)
  if (at <= 0 || !isNotifyKind(kind)) return undefined
  return { userId, kind }
}
