import { createCookieSessionStorage, type Session } from '@remix-run/node'
import { getWebEnv } from './env.server'
import { verifiedOnce } from './verified-cookies.server'

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
/** Each signed header checked once: a page reads its session up to four times (root, guard, each api call's token). */
const verified = verifiedOnce<SessionData, SessionFlash>()

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
    verified.forget()
  }
  return storage
}

export async function getSession(request: Request): Promise<AppSession> {
  return verified.getSession(sessionStorage(), request.headers.get('Cookie'))
}

export function commitSession(session: AppSession): Promise<string> {
  return sessionStorage().commitSession(session)
}

/** A fresh session with nothing of the old one: used on logout and expiry. */
export function emptySession(): Promise<AppSession> {
  return sessionStorage().getSession()
}
