import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { readForm } from '~/utils/form.server'
import { googleAuthenticator, googleReturnCookie } from '~/utils/google.server'
import { flowFallbacks } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader() {
  return redirect('/login')
}

/** POST only: starts the OAuth redirect to Google (the strategy throws that redirect). */
export async function action({ request }: ActionFunctionArgs) {
  const authenticator = googleAuthenticator()
  if (!authenticator) return redirectWithToast(request, '/login', { type: 'error', message: flowFallbacks.google })
  const redirectTo = safeRedirect((await readForm(request.clone())).get('redirectTo'), '/')
  try {
    return await authenticator.authenticate('google', request)
  } catch (thrown) {
    // Remember where to come back to for the few minutes the trip to Google takes.
    if (thrown instanceof Response && thrown.status === 302)
      thrown.headers.append('Set-Cookie', await googleReturnCookie.serialize(redirectTo))
    throw thrown
  }
}
