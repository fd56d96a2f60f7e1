import { redirect, type LoaderFunctionArgs, type Session } from '@remix-run/node'
import { forgetGoogleTrip, googleAuthenticator, googleIntent, GoogleLoginError, googleReturnTo } from '~/upstream/google.server'
import { redirectSignedIn } from '~/utils/auth.server'
import { flowFallbacks, profileMessages } from '~/utils/messages'
import { getSession } from '~/utils/session.server'
import { successMessages } from '~/utils/shell-messages'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * Google sends the person back here. Signing in: a new account goes on to choose a nickname.
 * Linking (signed in): back to where they started (Account) with "Google account linked" or the
 * refusal, still signed in as themselves.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const authenticator = googleAuthenticator()
  if (!authenticator) return redirect('/login')
  const linking = (await googleIntent(request)) === 'link'
  const returnTo = await googleReturnTo(request, linking ? '/account' : '/')
  let outcome
  try {
    outcome = await authenticator.authenticate('google', request, { context })
  } catch (error) {
    if (error instanceof Response) throw error
    const cause = error instanceof Error && 'cause' in error ? (error as { cause?: unknown }).cause : undefined
    const fallback = linking ? profileMessages.googleLinkFailed : flowFallbacks.google
    const message = cause instanceof GoogleLoginError ? cause.message : error instanceof GoogleLoginError ? error.message : fallback
    if (linking) return redirectWithToast(request, returnTo, { type: 'error', message: message || fallback }, await linkEnd(request))
    return redirectWithToast(request, '/login', { type: 'error', message: message || fallback })
  }
  if (outcome.kind === 'linked') {
    return redirectWithToast(request, returnTo, { type: 'success', message: profileMessages.googleLinked }, await linkEnd(request))
  }
  return redirectSignedIn(request, outcome.token, {
    to: outcome.isNew ? '/edit-profile' : returnTo,
    message: outcome.isNew ? successMessages.googleNew : successMessages.loggedIn,
    headers: await tripEnd(),
  })
}

/** The trip's cookies (the way back, the mode) end with it. */
async function tripEnd(): Promise<Headers> {
  const headers = new Headers()
  for (const line of await forgetGoogleTrip()) headers.append('Set-Cookie', line)
  return headers
}

/** A link ends in the person's own session, minus the OAuth state the strategy kept in it. */
async function linkEnd(request: Request) {
  const session = await getSession(request)
  ;(session as unknown as Session).unset('oauth2:state')
  return { session, headers: await tripEnd() }
}
