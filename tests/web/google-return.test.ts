import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as google from '~/routes/auth.google'
import * as googleCallback from '~/routes/auth.google.callback'
import { googleReturnCookie } from '~/upstream/google.server'
import { startFakeGoogle, startTestApi, TEST_GOOGLE_CLIENT_ID, type FakeGoogle, type TestApi, stubGoogleEndpoints } from '../support/api'
import { CookieJar, load, submit } from '../support/web'

/**
 * The way back after Google is a cookie the browser holds for ten minutes: whatever it says is
 * input. A Unicode space or full-width slashes there answered 500 (a Location header cannot hold
 * them); now they fall back to home. Google is faked as in google.test.ts; the api is real.
 */
let api: TestApi
let fakeGoogle: FakeGoogle
let nextIdToken = ''

beforeAll(async () => {
  // The api must trust the fake Google's keys, so Google starts first.
  fakeGoogle = await startFakeGoogle()
  api = await startTestApi({ config: { googleJwksUrl: fakeGoogle.jwksUrl } })
  process.env.API_BASE_URL = api.url
  process.env.GOOGLE_CLIENT_ID = TEST_GOOGLE_CLIENT_ID
  process.env.GOOGLE_CLIENT_SECRET = 'test-secret'
  stubGoogleEndpoints({ idToken: () => nextIdToken })
})
afterAll(async () => {
  vi.unstubAllGlobals()
  delete process.env.GOOGLE_CLIENT_ID
  delete process.env.GOOGLE_CLIENT_SECRET
  await api?.close()
  await fakeGoogle?.close()
})

describe("the Google callback's return cookie", () => {
  it('holding a Unicode space or full-width slashes: signed in and sent home, never a 500', async () => {
    const email = `return.${Date.now()}@gmail.com`
    const sub = `sub-return-${Date.now()}`
    let first = true
    for (const target of ['/\u3000/x', '/\uFF0F\uFF0Fx', '/\uFF0F\uFF0Fevil.example']) {
      const jar = new CookieJar()
      const started = await submit(google.action, '/auth/google', {}, jar)
      const state = new URL(started.headers.get('Location') ?? '').searchParams.get('state') ?? ''
      // The cookie as a tampered browser would send it.
      jar.absorb(new Response(null, { headers: { 'Set-Cookie': await googleReturnCookie.serialize(target) } }))
      nextIdToken = await fakeGoogle.idToken({ email, sub })
      const res = await load(googleCallback.loader, `/auth/google/callback?code=good-code&state=${state}`, jar)
      expect(res.status, target).toBe(302)
      // The first visit creates the account (on to the nickname); after that, home.
      expect(res.headers.get('Location'), target).toBe(first ? '/edit-profile' : '/')
      first = false
    }
  })
})
