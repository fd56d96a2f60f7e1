import { redirect, redirectDocument } from '@remix-run/node'
import type { DataOf, Endpoint, InputOf } from '#contract/endpoint'
import { profileApi, type UserInfo, type WalletSummary } from '#contract/profile'
import { upstream, UpstreamError } from '~/upstream/client.server'
import { deviceCookie, deviceOf } from './device.server'
import { accessMessages, transportMessages } from './messages'
import { afterChange, memoized } from './request-memo.server'
import { commitSession, emptySession, getSession, type AppSession } from './session.server'
import { combineHeaders, flashToast } from './toast.server'

/**
 * Who is asking, and the api calls made on their behalf. Every call goes through
 * callApi so that a 401 anywhere ends the same way: session gone, full
 * redirect to /login, toast "Login expired, please login again".
 */

/** Set by server.ts from Express's req.ip (after TRUST_PROXY); any incoming value is overwritten. */
export const CLIENT_IP_HEADER = 'x-cardlane-client-ip'

export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? undefined
}

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

async function withExpiry<T>(request: Request, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'expired') throw await expiredResponse(request)
    throw error
  }
}

/** A contract call on the person's behalf: their token, their address, and expiry handled. */
export async function callApi<E extends Endpoint>(request: Request, endpoint: E, input: InputOf<E>): Promise<DataOf<E>> {
  const token = await getToken(request)
  const send = () => upstream.call(endpoint, input, { token, clientIp: clientIp(request), device: deviceOf(request) })
  // A page's loaders asking the same GET (the root's and Home's user index) make one call.
  const answer =
    endpoint.method === 'GET'
      ? memoized(request, `${token ?? ''} ${endpoint.path} ${JSON.stringify(input)}`, send)
      : afterChange(request, send)
  const envelope = await withExpiry(request, () => answer)
  return envelope.data
}

/** The signed-in person as every screen sees them: the contract's userInfo words. */
export type SessionUser = {
  userId: string
  email: string
  userName: string
  headImg: string | null
  /** The linked Google account's e-mail; null when none is linked. */
  googleEmail: string | null
  unreadCount: number
  /** The wallet at a glance (Home's balance card, Account's rows); null if the api left it out. */
  wallet: WalletSummary | null
}

/**
 * The signed-in user, fetched from /v1/user/index (SPEC §4: at start, with a token, the user
 * info is fetched). No userInfo → logged out. The cached login_* fields are refreshed in the
 * given session; an e-mail the server omits keeps the one held before (SPEC §3).
 * `dirty` says the session changed and must be committed by the caller (once per response:
 * two Set-Cookie headers for one cookie would race).
 */
export async function loadSessionUser(
  request: Request,
  session: AppSession,
): Promise<{ user: SessionUser | null; session: AppSession; dirty: boolean }> {
  if (!session.get('token')) return { user: null, session, dirty: false }
  const index = await callApi(request, profileApi.index, {})
  const info: UserInfo | null = index.userInfo
  if (!info) return { user: null, session: await emptySession(), dirty: true }
  const email = info.email || session.get('login_email') || ''
  const user: SessionUser = {
    userId: info.userId,
    email,
    userName: info.userName,
    headImg: info.headImg,
    googleEmail: info.googleEmail ?? null,
    unreadCount: index.unreadCount,
    wallet: index.wallet,
  }
  const dirty =
    session.get('login_username') !== user.userName || session.get('login_email') !== user.email || session.get('login_id') !== user.userId
  if (dirty) {
    session.set('login_username', user.userName)
    session.set('login_email', user.email)
    session.set('login_id', user.userId)
  }
  return { user, session, dirty }
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
