import { redirect, redirectDocument } from '@remix-run/node'
import { deviceCookie } from './device.server'
import { accessMessages, transportMessages } from './messages'
import { commitSession, emptySession, getSession, type AppSession } from './session.server'
import { combineHeaders, flashToast } from './toast.server'

/**
 * Who is asking: the guards, the way back after sign-in, and the one answer to an expired token
 * (session gone, full redirect to /login, toast "Login expired, please login again"), which
 * callApi (upstream/call-api.server.ts) gives for a 401 anywhere.
 */

export async function getToken(request: Request): Promise<string | undefined> {
  return (await getSession(request)).get('token')
}

/** The place to come back to after sign-in: the page asked for, minus Remix's data param. */
export function returnPath(request: Request) {
  const url = new URL(request.url)
  url.searchParams.delete('_data')
  const search = url.searchParams.toString()
  return url.pathname + (search ? `?${search}` : '')
}

export function loginUrl(redirectTo?: string) {
  return redirectTo && redirectTo !== '/' ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'
}

/** Guard for login-required routes: throws the redirect to /login?redirectTo=…. */
export async function requireToken(request: Request): Promise<{ token: string; session: AppSession }> {
  const session = await getSession(request)
  const token = session.get('token')
  if (!token) {
    const to = request.method === 'GET' ? returnPath(request) : undefined
    flashToast(session, { type: 'info', message: accessMessages.pleaseLogin })
    throw redirect(loginUrl(to), { headers: { 'Set-Cookie': await commitSession(session) } })
  }
  return { token, session }
}

/** Guard for Login and Register: a signed-in user goes home. */
export async function requireAnonymous(request: Request) {
  if (await getToken(request)) throw redirect('/')
}

/** The response for an expired or revoked token, from a page load, a form post or a fetcher. */
export async function expiredResponse(request: Request) {
  const session = await emptySession()
  flashToast(session, { type: 'error', message: transportMessages.expired })
  const to = request.method === 'GET' ? returnPath(request) : undefined
  // redirectDocument: a full page load, so no screen keeps showing the old user's data.
  return redirectDocument(loginUrl(to), { headers: { 'Set-Cookie': await commitSession(session) } })
}

/**
 * Signed in (login, register, code sign-in, Google): a new session for the token, a welcome
 * toast, and on to `to`. The cached login_* fields start empty (SPEC §3: cleared on register) and
 * are filled by the next user-info fetch.
 */
export async function redirectSignedIn(
  request: Request,
  token: string,
  { to, message, email, headers }: { to: string; message: string; email?: string; headers?: HeadersInit },
) {
  const session = await emptySession()
  session.set('token', token)
  if (email) session.set('login_email', email)
  flashToast(session, { type: 'success', message })
  // A browser signing in for the first time keeps the device id its sign-in was made with.
  const device = deviceCookie(request)
  return redirect(to, {
    headers: combineHeaders(headers, { 'Set-Cookie': await commitSession(session) }, device ? { 'Set-Cookie': device } : undefined),
  })
}
