import { createCookieSessionStorage, redirect, type Session } from '@remix-run/node'
import type { StaffRole } from '#contract/endpoint'
import { returnPath } from '../utils/auth.server'
import { getWebEnv } from '../utils/env.server'
import type { SessionFlash, ToastInput } from '../utils/session.server'
import { flashToast } from '../utils/toast.server'
import { verifiedOnce } from '../utils/verified-cookies.server'

/**
 * The operator console's own cookie: a staff member is not a customer, so their session never
 * shares the customer's cookie (a customer token is never a staff one, and the other way round).
 * It holds the api's staff session token (Bearer), who it is for (to draw the console before the
 * api has answered), the sign-in challenge between password and code, and one flash toast.
 * No max-age: it ends with the browser; the api ends the session itself (idle and absolute limits).
 */
export type StaffSessionData = {
  token: string
  email: string
  role: StaffRole
  /** Between the password step and the code step of /ops/login. */
  challenge: string
  challengeEmail: string
}
export type StaffSession = Session<StaffSessionData, SessionFlash>

let storage: ReturnType<typeof build> | undefined
let storageKey: string | undefined
/**
 * Each signed header checked once: a console page reads the staff session up to four times (the
 * frame, the desk's guard, each staff call's token, the check of who the api saw).
 */
const verified = verifiedOnce<StaffSessionData, SessionFlash>()

function build() {
  const env = getWebEnv()
  const secure = env.cookieSecure
  return createCookieSessionStorage<StaffSessionData, SessionFlash>({
    cookie: {
      name: secure ? '__Host-cardlane_ops' : 'cardlane_ops',
      httpOnly: true,
      // Nothing reaches the console from another site with its cookie: no cross-site form, no link.
      sameSite: 'strict',
      secure,
      path: '/',
      secrets: env.sessionSecrets,
    },
  })
}

function staffStorage() {
  const env = getWebEnv()
  const key = `${env.cookieSecure}|${env.sessionSecrets.join(',')}`
  if (!storage || storageKey !== key) {
    storage = build()
    storageKey = key
    verified.forget()
  }
  return storage
}

export const getStaffSession = (request: Request): Promise<StaffSession> =>
  verified.getSession(staffStorage(), request.headers.get('Cookie'))
export const commitStaffSession = (session: StaffSession) => staffStorage().commitSession(session)
/** A fresh, empty staff session: after sign-out, expiry, or a new sign-in. */
export const emptyStaffSession = () => staffStorage().getSession()

export const OPS_LOGIN = '/ops/login'

export function opsLoginUrl(redirectTo?: string) {
  return redirectTo && redirectTo.startsWith('/ops') && redirectTo !== '/ops'
    ? `${OPS_LOGIN}?${new URLSearchParams({ redirectTo })}`
    : OPS_LOGIN
}

/** Redirect within the console with a toast, keeping (or replacing) the staff session. */
export async function redirectWithStaffToast(request: Request, url: string, toast: ToastInput, session?: StaffSession) {
  const kept = session ?? (await getStaffSession(request))
  flashToast(kept, toast)
  return redirect(url, { headers: { 'Set-Cookie': await commitStaffSession(kept) } })
}

/**
 * The console's answer when there is no staff session, or the api says it ended: an empty staff
 * session, a toast, and the staff sign-in (the way back kept for a page load).
 */
export async function staffSignInResponse(request: Request, message: string) {
  const session = await emptyStaffSession()
  flashToast(session, { type: 'info', message })
  const to = request.method === 'GET' ? returnPath(request) : undefined
  return redirect(opsLoginUrl(to), { headers: { 'Set-Cookie': await commitStaffSession(session) } })
}
