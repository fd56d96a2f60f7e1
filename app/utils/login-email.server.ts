import { createCookie } from '@remix-run/node'
import { emailField } from '#contract/accounts'
import { getWebEnv } from './env.server'

/**
 * The e-mail a password was just reset for, so /login shows it filled in: a signed, httpOnly
 * cookie of its own, read once. Not the session's flash: the root's loader and the login page's
 * commit the session apart (in parallel with JavaScript), and one would bring back what the other
 * read. Never in the URL.
 */
function loginEmailCookie() {
  const env = getWebEnv()
  return createCookie(env.cookieSecure ? '__Host-cardlane_login_email' : 'cardlane_login_email', {
    httpOnly: true,
    sameSite: 'lax',
    secure: env.cookieSecure,
    path: '/',
    secrets: env.sessionSecrets,
    maxAge: 10 * 60,
  })
}

/** The Set-Cookie that hands `email` to the next /login. */
export const rememberLoginEmail = (email: string) => loginEmailCookie().serialize(email)

/** The e-mail handed over, if any, and the Set-Cookie that forgets it. */
export async function takeLoginEmail(request: Request): Promise<{ email: string | null; headers: HeadersInit }> {
  const cookie = loginEmailCookie()
  const value: unknown = await cookie.parse(request.headers.get('Cookie'))
  if (value === null || value === undefined) return { email: null, headers: {} }
  const email = emailField.safeParse(value)
  return { email: email.success ? email.data : null, headers: { 'Set-Cookie': await cookie.serialize('', { maxAge: 0 }) } }
}
