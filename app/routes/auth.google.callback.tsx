import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { sessionForToken } from '~/utils/auth.server'
import { googleAuthenticator, GoogleLoginError, googleReturnCookie } from '~/utils/google.server'
import { flowFallbacks, successMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { commitSession } from '~/utils/session.server'
import { flashToast, redirectWithToast } from '~/utils/toast.server'

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
    const message = cause instanceof GoogleLoginError ? cause.message : error instanceof GoogleLoginError ? error.message : flowFallbacks.google
    return redirectWithToast(request, '/login', { type: 'error', message: message || flowFallbacks.google })
  }
  const session = await sessionForToken(result.token)
  flashToast(session, { type: 'success', message: result.isNew ? successMessages.googleNew : successMessages.loggedIn })
  const returnTo = safeRedirect(await googleReturnCookie.parse(request.headers.get('Cookie')), '/')
  const headers = new Headers()
  headers.append('Set-Cookie', await commitSession(session))
  headers.append('Set-Cookie', await googleReturnCookie.serialize('', { maxAge: 0 }))
  return redirect(result.isNew ? '/edit-profile' : returnTo, { headers })
}
