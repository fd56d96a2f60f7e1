import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { logoutFlow } from '~/upstream/accounts.server'
import { getToken } from '~/utils/auth.server'
import { accessMessages, successMessages } from '~/utils/messages'
import { emptySession } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Sign-out is a POST (a link or an image could not sign anyone out). */
export async function loader() {
  return redirect('/')
}

/**
 * Signed out means the api revoked the token: clearing only our cookie would leave a token that
 * stays valid for 30 days in any copy of that cookie. When the api cannot be reached or refuses,
 * the person stays signed in, back on Account (where Sign out is) with a toast that says so.
 * An expired token has nothing left to revoke.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const signedOut = async () =>
    redirectWithToast(
      request,
      '/',
      { type: 'success', message: successMessages.loggedOut },
      { session: await emptySession(), document: true },
    )
  if (!(await getToken(request))) return signedOut()
  let result
  try {
    result = await logoutFlow(request, context)
  } catch (error) {
    // The token had already expired at the api: nothing left to revoke.
    if (error instanceof Response) return signedOut()
    throw error
  }
  if (!result.success) return redirectWithToast(request, '/account', { type: 'error', message: accessMessages.signOutFailed })
  return signedOut()
}
