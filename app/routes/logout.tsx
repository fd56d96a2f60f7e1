import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { logoutFlow } from '~/upstream/accounts.server'
import { successMessages } from '~/utils/messages'
import { emptySession } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Sign-out is a POST (a link or an image could not sign anyone out). */
export async function loader() {
  return redirect('/')
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    // Revoke the token at the api; if it already expired there is nothing left to revoke.
    await logoutFlow(request)
  } catch (error) {
    if (!(error instanceof Response)) throw error
  }
  return redirectWithToast(request, '/', { type: 'success', message: successMessages.loggedOut }, { session: await emptySession(), document: true })
}
