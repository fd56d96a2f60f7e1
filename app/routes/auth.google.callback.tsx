import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { redirectSignedIn } from '~/utils/auth.server'
import { googleAuthenticator, GoogleLoginError, googleReturnCookie } from '~/utils/google.server'
import { flowFallbacks, successMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { redirectWithToast } from '~/utils/toast.server'

/** Google sends the person back here; a new account goes on to choose a nickname. */
export async function loader({ request }: LoaderFunctionArgs) {
  const authenticator = googleAuthenticator()
  if (!authenticator) return redirect('/login')
  let result
  try {
    result = await authenticator.authenticate('google', request)
  } catch (error) {
    if (error instanceof Response) throw error
    const cause = error instanceof Error && 'cause' in error ? (error as { cause?: unknown }).cause : undefined
    const message =
      cause instanceof GoogleLoginError ? cause.message : error instanceof GoogleLoginError ? error.message : flowFallbacks.google
    return redirectWithToast(request, '/login', { type: 'error', message: message || flowFallbacks.google })
  }
  const returnTo = safeRedirect(await googleReturnCookie.parse(request.headers.get('Cookie')), '/')
  return redirectSignedIn(result.token, {
    to: result.isNew ? '/edit-profile' : returnTo,
    message: result.isNew ? successMessages.googleNew : successMessages.loggedIn,
    headers: { 'Set-Cookie': await googleReturnCookie.serialize('', { maxAge: 0 }) },
  })
}
