import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as root from '~/root'
import * as google from '~/routes/auth.google'
import * as googleCallback from '~/routes/auth.google.callback'
import { getSession } from '~/utils/session.server'
import { startFakeGoogle, startTestApi, TEST_GOOGLE_CLIENT_ID, type FakeGoogle, type TestApi, stubGoogleEndpoints } from '../support/api'
import { CookieJar, expectRedirect, jsonOf, load, makeRequest, submit } from '../support/web'

/**
 * Google sign-in through remix-auth-google. Google itself is a third party: its token and
 * userinfo endpoints are faked here (fetch is intercepted for Google's hosts only), and its id_token
 * is signed by a local key the real api is told to trust. Our api and web are the real ones.
 */
let api: TestApi
let fakeGoogle: FakeGoogle
let nextIdToken = ''

beforeAll(async () => {
  fakeGoogle = await startFakeGoogle()
  api = await startTestApi({ config: { googleJwksUrl: fakeGoogle.jwksUrl } })
  process.env.API_BASE_URL = api.url
  process.env.GOOGLE_CLIENT_ID = TEST_GOOGLE_CLIENT_ID
  process.env.GOOGLE_CLIENT_SECRET = 'test-secret'
  stubGoogleEndpoints({
    idToken: () => nextIdToken,
    code: 'good-code',
    scope: 'openid email profile',
    userinfo: { sub: '1', name: 'Ada', given_name: 'Ada', family_name: 'L', picture: '', email: 'ada@gmail.com', email_verified: true },
  })
})
afterAll(async () => {
  vi.unstubAllGlobals()
  delete process.env.GOOGLE_CLIENT_ID
  delete process.env.GOOGLE_CLIENT_SECRET
  await api?.close()
  await fakeGoogle?.close()
})

async function startAtGoogle(jar: CookieJar, form: Record<string, string> = {}) {
  const res = await submit(google.action, '/auth/google', form, jar)
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('Location') ?? '')
  expect(location.origin + location.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth')
  expect(location.searchParams.get('client_id')).toBe(TEST_GOOGLE_CLIENT_ID)
  expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3000/auth/google/callback')
  return location.searchParams.get('state') ?? ''
}

describe('Continue with Google', () => {
  it('a new person: signed in, sent to choose a nickname with a welcome toast', async () => {
    const jar = new CookieJar()
    const state = await startAtGoogle(jar)
    nextIdToken = await fakeGoogle.idToken({ email: `new.${Date.now()}@gmail.com` })
    const res = await load(googleCallback.loader, `/auth/google/callback?code=good-code&state=${state}`, jar)
    expectRedirect(res, '/edit-profile')
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeTruthy()
    const next = await jsonOf(await load(root.loader, '/edit-profile', jar))
    expect(next.toast.message).toBe('Welcome! Choose the nickname people will see.')
    expect(next.user.email).toMatch(/^new\.\d+@gmail\.com$/)
  })

  it('a returning person goes back to the page they asked for (same-origin only)', async () => {
    const email = `back.${Date.now()}@gmail.com`
    const sub = `sub-${Date.now()}`
    for (const [redirectTo, expected] of [
      ['/account', '/edit-profile'],
      ['/account', '/account'],
      ['//evil.example', '/'],
    ]) {
      const jar = new CookieJar()
      const state = await startAtGoogle(jar, { redirectTo })
      nextIdToken = await fakeGoogle.idToken({ email, sub })
      expectRedirect(await load(googleCallback.loader, `/auth/google/callback?code=good-code&state=${state}`, jar), expected)
    }
  })

  it('a forged id_token is refused by the api: back to /login with its message, no session', async () => {
    const jar = new CookieJar()
    const state = await startAtGoogle(jar)
    nextIdToken = await fakeGoogle.idToken({}, { key: await fakeGoogle.otherKey() })
    const res = await load(googleCallback.loader, `/auth/google/callback?code=good-code&state=${state}`, jar)
    expectRedirect(res, '/login')
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeUndefined()
    const next = await jsonOf(await load(root.loader, '/login', jar))
    expect(next.toast).toMatchObject({ type: 'error', message: 'Google sign-in could not be verified' })
  })

  it('a callback without our state (CSRF) is refused with the Google fallback', async () => {
    const jar = new CookieJar()
    await startAtGoogle(jar)
    const res = await load(googleCallback.loader, '/auth/google/callback?code=good-code&state=forged', jar)
    expectRedirect(res, '/login')
    const next = await jsonOf(await load(root.loader, '/login', jar))
    expect(next.toast.message).toBe('Google Login failed, please try again later')
  })
})
