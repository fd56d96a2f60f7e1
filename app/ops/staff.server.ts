import { type AppLoadContext, data, redirect } from '@remix-run/node'
import type { DataOf, Endpoint, InputOf, StaffRole } from '#contract/endpoint'
import { roleAllows } from '#contract/ops/desks'
import { STAFF_SEEN_HEADER, staffApi, staffSeenOf } from '#contract/ops/staff'
import { deskRoleFor } from '~/ops/desks'
import { opsMessages } from '~/ops/messages'
import { commitStaffSession, getStaffSession, staffSignInResponse, type StaffSession } from '~/ops/session.server'
import { deviceOf } from '~/utils/device.server'
import { upstream, UpstreamError } from '../upstream/client.server'
import { flow, type FlowResult } from '../upstream/flow.server'
import { afterChange, memoized } from '../upstream/request-memo.server'

export type SignedInStaff = { token: string; email: string; role: StaffRole; session: StaffSession }

/**
 * Guard of every console route: a staff session, or the staff sign-in (a customer's session is not
 * one). The desk table (contract/ops/desks.ts) alone says which role opens the page asked for; a
 * staff member whose role cannot use the desk gets a 403 page (the api refuses the desk's calls
 * anyway, from the same table). A path outside the table (the frame, a page not found) is any
 * staff member's. The cookie's role may be older than an admin's change: before refusing, the api
 * is asked who this is (a new role is taken and the page asked again, see `callStaff`).
 */
export async function requireStaff(request: Request, context: AppLoadContext): Promise<SignedInStaff> {
  const needed = deskRoleFor(new URL(request.url).pathname)
  const signedIn = await signedInStaff(request)
  if (needed && !roleAllows(signedIn.role, needed)) {
    await callStaff(request, context, staffApi.me, {})
    throw data({ message: opsMessages.notYourDesk }, { status: 403 })
  }
  return signedIn
}

/**
 * The staff session of any role, as the cookie says (the console's frame, which every desk shares).
 * The frame asks the api nothing: each desk's own calls are checked by the api, and their answers
 * say who the api saw (`followTheApi`).
 */
export async function signedInStaff(request: Request): Promise<SignedInStaff> {
  const session = await getStaffSession(request)
  const token = session.get('token')
  const email = session.get('email')
  const staffRole = session.get('role')
  if (!token || !email || !staffRole) throw await staffSignInResponse(request, opsMessages.signInFirst)
  return { token, email, role: staffRole, session }
}

/**
 * The api saw another role or e-mail than the cookie's (an admin changed them): the cookie takes
 * the api's, and the same page is asked again, so its guard, its menu and its data all see the new
 * one (a redirect that sets a cookie makes Remix run every loader again, the frame's too).
 */
async function followTheApi(request: Request, seen: string | null) {
  const staff = staffSeenOf(seen)
  if (!staff) return
  const session = await getStaffSession(request)
  if (session.get('role') === staff.role && session.get('email') === staff.email) return
  session.set('role', staff.role)
  session.set('email', staff.email)
  const url = new URL(request.url)
  throw redirect(`${url.pathname}${url.search}`, { headers: { 'Set-Cookie': await commitStaffSession(session) } })
}

/**
 * A contract call as the signed-in staff member (Bearer token from the staff cookie). The api
 * ending the session (idle, absolute end, disabled, locked) sends them to the staff sign-in; a read
 * or a refusal that shows a changed role or e-mail reloads the page with them (a change that went
 * through keeps its answer: the page's next read follows).
 */
export async function callStaff<E extends Endpoint>(
  request: Request,
  context: AppLoadContext,
  endpoint: E,
  input: InputOf<E>,
): Promise<DataOf<E>> {
  const token = (await getStaffSession(request)).get('token')
  if (!token) throw await staffSignInResponse(request, opsMessages.signInFirst)
  let seen: string | null = null
  const send = () =>
    upstream.call(endpoint, input, {
      bearer: token,
      clientIp: context.clientAddress,
      device: deviceOf(request),
      onAnswer: (headers) => (seen = headers.get(STAFF_SEEN_HEADER)),
    })
  const answer =
    endpoint.method === 'GET'
      ? memoized(context, `staff ${token} ${endpoint.path} ${JSON.stringify(input)}`, send)
      : afterChange(context, send)
  let result: DataOf<E>
  try {
    result = (await answer).data
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'expired') throw await staffSignInResponse(request, opsMessages.sessionEnded)
    // The api refused the role (changed by an admin since this page's check): the desk's own 403 page.
    if (error instanceof UpstreamError && error.status === 403) {
      await followTheApi(request, seen)
      throw data({ message: opsMessages.notYourDesk }, { status: 403 })
    }
    throw error
  }
  if (endpoint.method === 'GET') await followTheApi(request, seen)
  return result
}

/** The same call as a flow: `{success:true,data}` or the api's refusal in words. */
export const staffFlow = <E extends Endpoint>(
  request: Request,
  context: AppLoadContext,
  endpoint: E,
  input: InputOf<E>,
): Promise<FlowResult<DataOf<E>>> => flow(context, opsMessages.failed, () => callStaff(request, context, endpoint, input))

/** Sign-in (no session yet): calls without a Bearer token. */
const publicStaffCall = <E extends Endpoint>(context: AppLoadContext, request: Request, endpoint: E, input: InputOf<E>) =>
  flow(
    context,
    opsMessages.failed,
    async () => (await upstream.call(endpoint, input, { clientIp: context.clientAddress, device: deviceOf(request) })).data,
  )

export const staffLoginFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof staffApi.login>) =>
  publicStaffCall(context, request, staffApi.login, body)
export const staffVerifyFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof staffApi.verify>) =>
  publicStaffCall(context, request, staffApi.verify, body)
export const setupStartFlow = (request: Request, context: AppLoadContext, token: string) =>
  publicStaffCall(context, request, staffApi.setupStart, { token })
export const setupCompleteFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof staffApi.setupComplete>) =>
  publicStaffCall(context, request, staffApi.setupComplete, body)
