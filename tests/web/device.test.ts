import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as login from '~/routes/login'
import { registerUser, startTestApi, type TestApi } from '../support/api'
import { call, CookieJar, makeRequest } from '../support/web'

/**
 * The browser's device id (app/utils/device.server.ts): made at its first sign-in, kept in its own
 * httpOnly cookie across sign-outs, and sent to the api, which remembers its digest as one of the
 * person's known places (decision 014).
 */
let api: TestApi
const password = 'a fine passphrase 42'

beforeAll(async () => {
  api = await startTestApi()
  process.env.API_BASE_URL = api.url
})
afterAll(async () => {
  await api?.close()
})

const deviceCookieOf = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith('cardlane_device='))

describe('the device id', () => {
  it('is set at a first sign-in, httpOnly, and the api knows the person signed in with it', async () => {
    const email = `device.${Date.now()}@example.com`
    await registerUser(api, email, password)
    const jar = new CookieJar()
    const first = await call(login.action, makeRequest('/login', { form: { intent: 'password', email, password }, jar }))
    expect(first.status).toBe(302)
    const cookie = deviceCookieOf(first)
    expect(cookie).toMatch(/^cardlane_device=[A-Za-z0-9_-]{32}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/)
    jar.absorb(first)
    const id = cookie!.split(';')[0].split('=')[1]
    const digest = createHash('sha256').update(id).digest('base64url')
    const user = await api.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    const places = await api.db.selectFrom('sign_in_places').select('place').where('user_id', '=', user.id).execute()
    expect(places.map((p) => p.place)).toContain(`d:${digest}`)
    expect(api.logs.join('\n')).not.toContain(id)

    // The next sign-in from this browser sends the same id and sets no new one.
    const again = await call(login.action, makeRequest('/login', { form: { intent: 'password', email, password }, jar }))
    expect(again.status).toBe(302)
    expect(deviceCookieOf(again)).toBeUndefined()
  })
})
