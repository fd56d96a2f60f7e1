import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { staffApi } from '#contract/ops/staff'
import { opsMessages } from '~/ops/messages'
import { commitStaffSession, emptyStaffSession, getStaffSession, OPS_LOGIN } from '~/ops/session.server'
import { staffFlow } from '~/ops/staff.server'
import { flashToast } from '~/utils/toast.server'

export const loader = () => redirect(OPS_LOGIN)

/** Sign out of the console: the api ends the staff session, and this browser forgets it either way. */
export async function action({ request, context }: ActionFunctionArgs) {
  if ((await getStaffSession(request)).get('token')) await staffFlow(request, context, staffApi.logout, {})
  const session = await emptyStaffSession()
  flashToast(session, { type: 'info', message: opsMessages.signedOut })
  return redirect(OPS_LOGIN, { headers: { 'Set-Cookie': await commitStaffSession(session) } })
}
