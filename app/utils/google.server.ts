import { createCookie } from '@remix-run/node'
import { Authenticator } from 'remix-auth'
import { GoogleStrategy } from 'remix-auth-google'
import type { GoogleNewData } from '#contract/accounts'
import { googleLoginFlow } from '~/upstream/accounts.server'
import { getWebEnv } from './env.server'
import { sessionStorage } from './session.server'

/**
 * Google sign-in through remix-auth + remix-auth-google. The strategy does the OAuth dance
 * (state in our session cookie); the verify callback hands Google's id_token to our api
 * (/auth/googleNew), which checks it against Google's keys and answers {token, isNew}.
 * The web layer never decides who someone is on its own.
 */
export class GoogleLoginError extends Error {}

/** Where to go after Google sends the person back (a same-origin path, checked again on read). */
export const googleReturnCookie = createCookie('cardlane_google_return', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/auth/google',
  maxAge: 600,
})

let authenticator: Authenticator<GoogleNewData> | undefined

export function googleAuthenticator(): Authenticator<GoogleNewData> | null {
  const env = getWebEnv()
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null
  if (authenticator) return authenticator
  authenticator = new Authenticator<GoogleNewData>(sessionStorage() as never, { throwOnError: true })
  authenticator.use(
    new GoogleStrategy(
      {
        clientID: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
        callbackURL: env.PUBLIC_URL ? new URL('/auth/google/callback', env.PUBLIC_URL).toString() : '/auth/google/callback',
        prompt: 'select_account',
      },
      async ({ extraParams, request }) => {
        const result = await googleLoginFlow(request, extraParams.id_token)
        if (!result.success) throw new GoogleLoginError(result.msg)
        return result.data
      },
    ),
  )
  return authenticator
}
