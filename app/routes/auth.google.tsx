import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { googleAuthenticator, googleIntentCookie, googleReturnCookie } from '~/upstream/google.server'
import { requireToken } from '~/utils/auth.server'
import { readForm } from '~/utils/form.server'
import { flowFallbacks, profileMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader() {
  return redirect('/login')
}

/**
 * POST only: starts the OAuth redirect to Google (the strategy throws that redirect). `intent=link`
 * (Account's "Link Google", signed in only) links the Google account instead of signing in.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(context, request.clone())
  const intent = form.get('intent') === 'link' ? 'link' : 'login'
  if (intent === 'link') await requireToken(request)
  const redirectTo = safeRedirect(form.get('redirectTo'), intent === 'link' ? '/account' : '/')
  const authenticator = googleAuthenticator()
  if (!authenticator) {
    return intent === 'link'
      ? redirectWithToast(request, redirectTo, { type: 'error', message: profileMessages.googleUnavailable })
      : redirectWithToast(request, '/login', { type: 'error', message: flowFallbacks.google })
  }
  try {
    return await authenticator.authenticate('google', request, { context })
  } catch (thrown) {
    // Remember where to come back to, and why, for the few minutes the trip to Google takes.
    if (thrown instanceof Response && thrown.status === 302) {
      thrown.headers.append('Set-Cookie', await googleReturnCookie.serialize(redirectTo))
      thrown.headers.append(
        'Set-Cookie',
        intent === 'link' ? await googleIntentCookie.serialize('link') : await googleIntentCookie.serialize('', { maxAge: 0 }),
      )
    }
    throw thrown
  }
}
