import { createCookieSessionStorage, createSession, type Session } from '@remix-run/node'
import { getWebEnv } from './env.server'

/**
 * The web layer's only state: a signed, httpOnly cookie holding the api token, the cached
 * login_username / login_email / login_id (SPEC §3 "Session") and one flash toast.
 * The token never reaches browser JavaScript.
 */
export type ToastType = 'success' | 'error' | 'info' | 'warning'
export type ToastInput = { type: ToastType; message: string }

export type SessionData = {
  token: string
  login_username: string
  login_email: string
  login_id: string
}
export type SessionFlash = { toast: ToastInput & { id: string } }
export type AppSession = Session<SessionData, SessionFlash>

let storage: ReturnType<typeof build> | undefined
let storageKey: string | undefined

function build() {
  const env = getWebEnv()
  const secure = env.cookieSecure
  return createCookieSessionStorage<SessionData, SessionFlash>({
    cookie: {
      // __Host- pins the cookie to this host, path /, Secure: no subdomain can plant one.
      name: secure ? '__Host-cardlane_session' : 'cardlane_session',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      secrets: env.sessionSecrets,
      maxAge: 60 * 60 * 24 * 30,
    },
  })
}

export function sessionStorage() {
  const env = getWebEnv()
  const key = `${env.cookieSecure}|${env.sessionSecrets.join(',')}`
  if (!storage || storageKey !== key) {
    storage = build()
    storageKey = key
    verified.clear()
  }
  return storage
}

/**
 * Cookie headers already verified, with what they hold. A page's loaders read the session up to
 * four times (root, guard, each api call's token) and each read is an HMAC; the same signed
 * header always holds the same data, so it is checked once. A header that fails is not kept.
 * Bounded: the oldest entry goes first.
 */
// The data as the cookie holds it (flash keys included), which createSession takes back as it is.
const verified = new Map<string, SessionData>()
const VERIFIED_MAX = 1000

export async function getSession(request: Request): Promise<AppSession> {
  const header = request.headers.get('Cookie')
  const sessions = sessionStorage()
  const known = header ? verified.get(header) : undefined
  // A fresh session each time: a loader that sets or flashes must not change another's.
  if (known) return createSession<SessionData, SessionFlash>({ ...known })
  const session = await sessions.getSession(header)
  if (header && session.data && Object.keys(session.data).length > 0) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string)
    verified.set(header, { ...session.data } as SessionData)
  }
  return session
}

export function commitSession(session: AppSession): Promise<string> {
  return sessionStorage().commitSession(session)
}

/** A fresh session with nothing of the old one: used on logout and expiry. */
export function emptySession(): Promise<AppSession> {
  return sessionStorage().getSession()
}
