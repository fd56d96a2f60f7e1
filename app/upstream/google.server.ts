import { createCookie } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { GoogleStrategy } from 'remix-auth-google'
import { expiredResponse } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { safeRedirect } from '~/utils/redirect'
import { sessionStorage } from '~/utils/session.server'
import { bindGoogleFlow, googleLoginFlow } from './accounts.server'

/**
 * Google through remix-auth + remix-auth-google, in two modes. The strategy does the OAuth dance
 * (state in our session cookie); the verify callback hands Google's id_token to our api, which
 * checks it against Google's keys:
 * - sign-in (/auth/googleNew): answers {token, isNew};
 * - link, while signed in (bindAccount, with the person's own token): links that Google account.
 * The web layer never decides who someone is on its own.
 */
export class GoogleLoginError extends Error {}

/** What the trip to Google ended in. */
export type GoogleOutcome = { kind: 'signed-in'; token: string; isNew: boolean } | { kind: 'linked'; email: string | null }

export type GoogleIntent = 'login' | 'link'

/** Where to go after Google sends the person back (a same-origin path, checked again on read). */
export const googleReturnCookie = createCookie('cardlane_google_return', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/auth/google',
  maxAge: 600,
})

/**
 * Which mode the trip started in: only our own POST /auth/google sets it (the cross-site guard
 * refuses anyone else's), and the OAuth state in the session ties the callback to that POST.
 */
export const googleIntentCookie = createCookie('cardlane_google_intent', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/auth/google',
  maxAge: 600,
})

/** Where the trip said to come back to (checked: a same-origin path), else `fallback`. */
export async function googleReturnTo(request: Request, fallback: string): Promise<string> {
  return safeRedirect(await googleReturnCookie.parse(request.headers.get('Cookie')), fallback)
}

export async function googleIntent(request: Request): Promise<GoogleIntent> {
  return (await googleIntentCookie.parse(request.headers.get('Cookie'))) === 'link' ? 'link' : 'login'
}

/** The Set-Cookie lines that end a trip: neither the way back nor the mode outlives it. */
export async function forgetGoogleTrip(): Promise<string[]> {
  return [await googleReturnCookie.serialize('', { maxAge: 0 }), await googleIntentCookie.serialize('', { maxAge: 0 })]
}

let authenticator: Authenticator<GoogleOutcome> | undefined

export function googleAuthenticator(): Authenticator<GoogleOutcome> | null {
  const env = getWebEnv()
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null
  if (authenticator) return authenticator
  authenticator = new Authenticator<GoogleOutcome>(sessionStorage() as never, { throwOnError: true })
  authenticator.use(
    new GoogleStrategy(
      {
        clientID: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
        callbackURL: env.PUBLIC_URL ? new URL('/auth/google/callback', env.PUBLIC_URL).toString() : '/auth/google/callback',
        prompt: 'select_account',
      },
      async ({ extraParams, request, context }): Promise<GoogleOutcome> => {
        // The callback route hands its load context to authenticate(); without one there is no request to act for.
        if (!context) throw new Error('Google sign-in needs the load context')
        if ((await googleIntent(request)) === 'link') {
          const linked = await bindGoogleFlow(request, context, extraParams.id_token).catch(async (thrown) => {
            // Signed out meanwhile (callApi's expiry): to /login, and after it back where the link
            // started, never to this callback (its code is spent, and codes stay out of URLs).
            if (thrown instanceof Response)
              throw await expiredResponse(new Request(new URL(await googleReturnTo(request, '/account'), request.url)))
            throw thrown
          })
          if (!linked.success) throw new GoogleLoginError(linked.msg)
          return { kind: 'linked', email: linked.data.email }
        }
        const result = await googleLoginFlow(request, context, extraParams.id_token)
        if (!result.success) throw new GoogleLoginError(result.msg)
        return { kind: 'signed-in', ...result.data }
      },
    ),
  )
  return authenticator
}
