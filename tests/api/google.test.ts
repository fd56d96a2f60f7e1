import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { googleNewData } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { seedUser, startFakeGoogle, startTestApi, type FakeGoogle, type TestApi } from '../support/api'

/**
 * Google sign-in (SPEC §7 /auth/google, /auth/googleNew): id_tokens checked against a JWKS URL,
 * here a local key set made with jose.
 */

let google: FakeGoogle
let api: TestApi
beforeAll(async () => {
  google = await startFakeGoogle()
  api = await startTestApi({ config: { googleJwksUrl: google.jwksUrl } })
})
afterAll(async () => {
  await api?.close()
  await google?.close()
})

let n = 0
const fresh = () => ({ sub: `g${Date.now()}${++n}`, email: `google.${n}@gmail.com` })
const BAD = { code: Refusals.BAD_ID_TOKEN.code, msg: 'Google sign-in could not be verified', data: null }
const token = (claims: Record<string, unknown> = {}, opts: Parameters<FakeGoogle['idToken']>[1] = {}) =>
  google.idToken(claims, { now: api.clock.now(), ...opts })

describe('googleNew', () => {
  test('a first sign-in creates the user (isNew true) with name and picture; the next finds it', async () => {
    const who = fresh()
    const picture = 'https://lh3.googleusercontent.com/a/photo'
    const first = await api.post('/auth/googleNew', { id_token: await token({ ...who, name: 'Ada L', picture }) })
    expect(first.body.code).toBe(Code.OK)
    const data = googleNewData.parse(first.body.data)
    expect(data.isNew).toBe(true)
    const info = await api.get('/v1/user/index', { token: data.token })
    expect(info.body.data).toMatchObject({ userInfo: { email: who.email, userName: 'Ada L', headImg: picture } })

    const again = await api.post('/auth/googleNew', { id_token: await token(who) })
    expect(googleNewData.parse(again.body.data).isNew).toBe(false)
  })

  test('an account with the same e-mail is linked, not duplicated, and keeps its password', async () => {
    const who = fresh()
    const { user } = await seedUser(api, { email: who.email, password: 'my own password' })
    const res = await api.post<{ token: string; isNew: boolean }>('/auth/googleNew', {
      id_token: await token({ ...who, email: who.email.toUpperCase() }),
    })
    expect(res.body.data.isNew).toBe(false)
    const info = await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token: res.body.data.token })
    expect(info.body.data.userInfo.userId).toBe(user.id)
    expect((await api.post('/auth/login', { email: who.email, password: 'my own password' })).body.code).toBe(Code.OK)
    const row = await api.db.selectFrom('users').select('google_sub').where('id', '=', user.id).executeTakeFirstOrThrow()
    expect(row.google_sub).toBe(who.sub)
  })

  test('an account already linked to another Google account is not taken over', async () => {
    const who = fresh()
    await seedUser(api, { email: who.email, googleSub: 'someone-else' })
    const res = await api.post('/auth/googleNew', { id_token: await token(who) })
    expect(res.body.code).toBe(Refusals.ACCOUNT_ALREADY_BOUND.code)
  })

  test('the Google sub wins over a changed e-mail', async () => {
    const who = fresh()
    const first = await api.post<{ token: string }>('/auth/googleNew', { id_token: await token(who) })
    const moved = await api.post<{ token: string; isNew: boolean }>('/auth/googleNew', {
      id_token: await token({ ...who, email: `moved.${n}@gmail.com` }),
    })
    expect(moved.body.data.isNew).toBe(false)
    const a = await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token: first.body.data.token })
    const b = await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token: moved.body.data.token })
    expect(b.body.data.userInfo.userId).toBe(a.body.data.userInfo.userId)
  })

  test('parallel first sign-ins make one user', async () => {
    const who = fresh()
    const answers = await Promise.all([1, 2, 3].map(async () => api.post('/auth/googleNew', { id_token: await token(who) })))
    for (const a of answers) expect(a.body.code).toBe(Code.OK)
    const rows = await api.db.selectFrom('users').select('id').where('email', '=', who.email).execute()
    expect(rows).toHaveLength(1)
  })
})

describe('google', () => {
  test('answers just the token string', async () => {
    const res = await api.post<string>('/auth/google', { id_token: await token(fresh()) })
    expect(res.body.code).toBe(Code.OK)
    expect(res.body.data).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  test('the issuer may be written with or without https://', async () => {
    const res = await api.post('/auth/google', { id_token: await token({ ...fresh(), iss: 'accounts.google.com' }) })
    expect(res.body.code).toBe(Code.OK)
  })
})

describe('refused id_tokens', () => {
  test.each<[string, () => Promise<string>]>([
    ['another audience', () => token({ ...fresh(), aud: 'someone-elses-client' })],
    ['another issuer', () => token({ ...fresh(), iss: 'https://evil.example.com' })],
    ['an unverified e-mail', () => token({ ...fresh(), email_verified: false })],
    ['no e-mail', () => token({ ...fresh(), email: undefined })],
    ['an expired token', () => token(fresh(), { now: api.clock.now() - 2 * 3600_000 })],
    ['a key Google never published', async () => token(fresh(), { key: await google.otherKey() })],
    ['an unknown key id', async () => token(fresh(), { kid: 'nope', key: await google.otherKey() })],
    ['not a JWT at all', async () => 'not.a.jwt'],
    [
      'an unsigned token',
      async () => {
        const payload = (await token(fresh())).split('.')[1]
        const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
        return `${none}.${payload}.`
      },
    ],
  ])('%s', async (_label, make) => {
    for (const path of ['/auth/google', '/auth/googleNew']) {
      const res = await api.post(path, { id_token: await make() })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(BAD)
    }
  })

  test('when the key set cannot be fetched', async () => {
    const offline = await startTestApi({ config: { googleJwksUrl: 'http://127.0.0.1:9/certs' } })
    try {
      const res = await offline.post('/auth/google', { id_token: await token(fresh()) })
      expect(res.body).toEqual(BAD)
    } finally {
      await offline.close()
    }
  })

  test('when no GOOGLE_CLIENT_ID is set, nothing is accepted', async () => {
    const unset = await startTestApi({ config: { googleJwksUrl: google.jwksUrl, googleClientIds: [] } })
    try {
      const res = await unset.post('/auth/google', { id_token: await token(fresh()) })
      expect(res.body).toEqual(BAD)
    } finally {
      await unset.close()
    }
  })

  test('several client ids (web, Android, iOS) may be allowed', async () => {
    const multi = await startTestApi({
      config: { googleJwksUrl: google.jwksUrl, googleClientIds: ['web-id', 'android-id'] },
    })
    try {
      const res = await multi.post('/auth/google', { id_token: await token({ ...fresh(), aud: 'android-id' }) })
      expect(res.body.code).toBe(Code.OK)
    } finally {
      await multi.close()
    }
  })

  test('a missing or empty id_token is a 400', async () => {
    expect((await api.post('/auth/google', {})).body.msg).toBe('id_token: id_token is required')
    expect((await api.post('/auth/googleNew', { id_token: '' })).status).toBe(400)
    expect((await api.post('/auth/google', { idToken: 'x' })).status).toBe(400)
  })
})
