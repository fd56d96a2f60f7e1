import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { logoutFlow } from '~/upstream/accounts.server'
import { queueRevoke, unheard } from '~/upstream/revoke-queue.server'
import { getToken } from '~/utils/auth.server'
import { accessMessages } from '~/utils/messages'
import { emptySession } from '~/utils/session.server'
import { successMessages } from '~/utils/shell-messages'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * Signed out on this device: the browser drops its caches and this site's storage, the balance the
 * offline page keeps and the service worker with them (decision 048). Not cookies: the response's
 * own Set-Cookie carries the sign-out toast.
 */
const SIGNED_OUT_CLEARS = '"cache", "storage"'

/** Sign-out is a POST (a link or an image could not sign anyone out). */
export async function loader() {
  return redirect('/')
}

/**
 * Signed out means the api revoked the token: clearing only our cookie would leave a token that
 * stays valid in any copy of that cookie. When the api cannot be reached, the person is signed out
 * on this device all the same (never kept signed in behind an error page), told so, and the token
 * is revoked as soon as the api answers (revoke-queue.server.ts). When the api answers with a
 * refusal, the person stays signed in, back on Account with a toast that says so.
 * An expired token has nothing left to revoke.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const signedOut = async (message: string = successMessages.loggedOut) =>
    redirectWithToast(
      request,
      '/',
      { type: message === successMessages.loggedOut ? 'success' : 'warning', message },
      {
        session: await emptySession(),
        document: true,
        headers: { 'Clear-Site-Data': SIGNED_OUT_CLEARS },
      },
    )
  const token = await getToken(request)
  if (!token) return signedOut()
  let result
  try {
    result = await logoutFlow(request, context)
  } catch (error) {
    // The token had already expired at the api: nothing left to revoke.
    if (error instanceof Response) return signedOut()
    throw error
  }
  if (!result.success && unheard(result)) {
    queueRevoke(token, context.clientAddress, Date.now(), context.requestId)
    return signedOut(accessMessages.signedOutHereOnly)
  }
  if (!result.success) return redirectWithToast(request, '/account', { type: 'error', message: accessMessages.signOutFailed })
  return signedOut()
}
