import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Refusals } from '#contract/refusals'
import * as root from '~/root'
import * as google from '~/routes/auth.google'
import * as googleCallback from '~/routes/auth.google.callback'
import { getSession } from '~/utils/session.server'
import {
  seedUser,
  startFakeGoogle,
  startTestApi,
  TEST_GOOGLE_CLIENT_ID,
  type FakeGoogle,
  type TestApi,
  stubGoogleEndpoints,
} from '../support/api'
import { newEmail } from '../support/kit'
import { CookieJar, expectRedirect, jsonOf, load, makeRequest, signedInJar, submit } from '../support/web'

/**
 * Linking Google from Account: the same remix-auth Google trip in "link" mode while signed in. Google
 * is faked as in google.test.ts (its token endpoint answers our id_token, signed by a local key the
 * real api trusts); the web and the api are the real ones.
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
  stubGoogleEndpoints({ idToken: () => nextIdToken, code: 'good-code' })
})
afterAll(async () => {
  vi.unstubAllGlobals()
  delete process.env.GOOGLE_CLIENT_ID
  delete process.env.GOOGLE_CLIENT_SECRET
  await api?.close()
  await fakeGoogle?.close()
})

let n = 0
const googleAccount = () => ({ sub: `web-link-${Date.now()}-${++n}`, email: `web.link.${n}.${Date.now()}@gmail.com` })

async function signedIn(googleSub?: string) {
  const { user, token } = await seedUser(api, { email: newEmail('weblink'), googleSub })
  return { user, token, jar: await signedInJar(token) }
}

/** POST /auth/google with intent=link: off to Google, with the OAuth state. */
async function startLinking(jar: CookieJar, form: Record<string, string> = {}) {
  const res = await submit(google.action, '/auth/google', { intent: 'link', ...form }, jar)
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('Location') ?? '')
  expect(location.origin + location.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth')
  return location.searchParams.get('state') ?? ''
}

const comeBack = (jar: CookieJar, state: string, code = 'good-code') =>
  load(googleCallback.loader, `/auth/google/callback?code=${code}&state=${state}`, jar)

const linkOf = (userId: string) =>
  api.db.selectFrom('users').select(['google_sub', 'google_email']).where('id', '=', userId).executeTakeFirstOrThrow()

describe('Link Google (signed in)', () => {
  it('links the Google account, back on Account with "Google account linked", still signed in as themselves', async () => {
    const { user, token, jar } = await signedIn()
    const g = googleAccount()
    const state = await startLinking(jar)
    nextIdToken = await fakeGoogle.idToken(g)
    const res = await comeBack(jar, state)
    expectRedirect(res, '/account')
    await expect(res).toSendToast({ type: 'success', message: 'Google account linked' })
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBe(token)
    expect(await linkOf(user.id)).toEqual({ google_sub: g.sub, google_email: g.email })
    const page = await jsonOf(await load(root.loader, '/account', jar))
    expect(page.user).toMatchObject({ userId: user.id, googleEmail: g.email })
    // The trip's cookies end with it: the next Google trip is a sign-in again unless it says otherwise.
    expect(res.headers.getSetCookie().some((c) => /^cardlane_google_intent=;/.test(c))).toBe(true)
  })

  it('comes back to the page it started from (same-origin only)', async () => {
    const { jar } = await signedIn()
    const state = await startLinking(jar, { redirectTo: '/edit-profile' })
    nextIdToken = await fakeGoogle.idToken(googleAccount())
    expectRedirect(await comeBack(jar, state), '/edit-profile')
    const other = await signedIn()
    const evil = await startLinking(other.jar, { redirectTo: '//evil.example' })
    nextIdToken = await fakeGoogle.idToken(googleAccount())
    expectRedirect(await comeBack(other.jar, evil), '/account')
  })

  it('a Google account linked to someone else: back on Account with its message, nothing linked, still signed in', async () => {
    const g = googleAccount()
    await signedIn(g.sub)
    const { user, token, jar } = await signedIn()
    const state = await startLinking(jar)
    nextIdToken = await fakeGoogle.idToken(g)
    const res = await comeBack(jar, state)
    expectRedirect(res, '/account')
    await expect(res).toSendToast({ type: 'error', message: Refusals.GOOGLE_LINKED_ELSEWHERE.msg })
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBe(token)
    expect(await linkOf(user.id)).toEqual({ google_sub: null, google_email: null })
  })

  it('a forged id_token is refused by the api: its message, nothing linked', async () => {
    const { user, jar } = await signedIn()
    const state = await startLinking(jar)
    nextIdToken = await fakeGoogle.idToken(googleAccount(), { key: await fakeGoogle.otherKey() })
    const res = await comeBack(jar, state)
    expectRedirect(res, '/account')
    await expect(res).toSendToast({ type: 'error', message: Refusals.BAD_ID_TOKEN.msg })
    expect((await linkOf(user.id)).google_sub).toBeNull()
  })

  it('a callback without our state (CSRF) links nothing', async () => {
    const { user, jar } = await signedIn()
    await startLinking(jar)
    nextIdToken = await fakeGoogle.idToken(googleAccount())
    const res = await comeBack(jar, 'forged')
    expectRedirect(res, '/account')
    await expect(res).toSendToast({ type: 'error', message: 'Linking Google failed, please try again later' })
    expect((await linkOf(user.id)).google_sub).toBeNull()
  })

  it('a visitor cannot start linking: sent to sign in, never to Google', async () => {
    const res = await submit(google.action, '/auth/google', { intent: 'link' }, new CookieJar())
    expectRedirect(res, /^\/login/)
  })

  it('signed out while at Google: the callback ends at /login with "Login expired", nothing linked', async () => {
    const { user, token, jar } = await signedIn()
    const state = await startLinking(jar)
    await api.post('/auth/logout', {}, { token })
    nextIdToken = await fakeGoogle.idToken(googleAccount())
    const res = await comeBack(jar, state)
    // Back to Account after signing in again; the spent Google code never goes into a URL.
    expectRedirect(res, '/login?redirectTo=%2Faccount')
    await expect(res).toSendToast({ type: 'error', message: 'Login expired, please login again' })
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeUndefined()
    expect((await linkOf(user.id)).google_sub).toBeNull()
  })

  it('after a link, "Continue with Google" signs in again (the mode does not stick)', async () => {
    const { user, jar } = await signedIn()
    const g = googleAccount()
    const state = await startLinking(jar)
    nextIdToken = await fakeGoogle.idToken(g)
    await comeBack(jar, state)

    const visitor = new CookieJar()
    const started = await submit(google.action, '/auth/google', {}, visitor)
    const signInState = new URL(started.headers.get('Location') ?? '').searchParams.get('state') ?? ''
    nextIdToken = await fakeGoogle.idToken(g)
    expectRedirect(await comeBack(visitor, signInState), '/')
    const page = await jsonOf(await load(root.loader, '/', visitor))
    expect(page.user.userId).toBe(user.id)
  })
})
