import { randomBytes } from 'node:crypto'
import { getWebEnv } from './env.server'

/**
 * This browser's device id: a random value in its own httpOnly cookie, kept across sign-outs, sent
 * to the api with every call (header `x-cardlane-device`). The api remembers the devices a person
 * signed in from (api/lib/sign-in-place.ts), and serves them ahead of strangers when sign-ins are
 * flooded or guessed at. A secret of the browser, like the session: never in a page or a log.
 */
const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/
const YEAR_S = 60 * 60 * 24 * 365

const cookieName = () => (getWebEnv().cookieSecure ? '__Host-cardlane_device' : 'cardlane_device')

/** A request's own id when it has none yet: made once, so the sign-in call and its cookie agree. */
const minted = new WeakMap<Request, string>()

/** The device id of this request's browser; a new one (set by `deviceCookie`) when it has none. */
export function deviceOf(request: Request): string {
  const name = cookieName()
  for (const part of (request.headers.get('Cookie') ?? '').split(';')) {
    const [key, value] = part.trim().split('=')
    if (key === name && value && DEVICE_ID.test(value)) return value
  }
  let id = minted.get(request)
  if (!id) minted.set(request, (id = randomBytes(24).toString('base64url')))
  return id
}

/** The Set-Cookie header for a browser that had no device id, or null when it had one. */
export function deviceCookie(request: Request): string | null {
  if (!minted.has(request)) return null
  const secure = getWebEnv().cookieSecure
  return `${cookieName()}=${minted.get(request)}; Path=/; Max-Age=${YEAR_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
}
