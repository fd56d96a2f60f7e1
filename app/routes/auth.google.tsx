import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { googleAuthenticator } from '~/utils/google.server'
import { flowFallbacks } from '~/utils/messages'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader() {
  return redirect('/login')
}

/** POST only: starts the OAuth redirect to Google (the strategy throws that redirect). */
export async function action({ request }: ActionFunctionArgs) {
  const authenticator = googleAuthenticator()
  if (!authenticator) return redirectWithToast(request, '/login', { type: 'error', message: flowFallbacks.google })
  return authenticator.authenticate('google', request)
}
