import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { accountsApi, bindAccountData, googleNewData } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { userIndexData } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { seedUser, startFakeGoogle, startTestApi, type FakeGoogle, type TestApi } from '../support/api'
import { newEmail } from '../support/kit'

/**
 * Linking a Google account while signed in (`POST /v1/user/bindAccount {provider: "google",
 * id_token}`): the id_token is checked exactly as at sign-in, against a local key set standing in
 * for Google's (config.googleJwksUrl), and the link is Google's `sub`, never an e-mail.
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
const googleAccount = () => ({ sub: `link-${Date.now()}-${++n}`, email: `linked.${n}.${Date.now()}@gmail.com` })
const idToken = (claims: Record<string, unknown> = {}, opts: Parameters<FakeGoogle['idToken']>[1] = {}) =>
  google.idToken(claims, { now: api.clock.now(), ...opts })
const bind = (token: string, id_token: string) => api.post('/v1/user/bindAccount', { provider: 'google', id_token }, { token })
const person = (googleSub?: string) => seedUser(api, { email: newEmail('link'), googleSub })
const linkOf = (userId: string) =>
  api.db.selectFrom('users').select(['google_sub', 'google_email']).where('id', '=', userId).executeTakeFirstOrThrow()
const userInfo = async (token: string) => userIndexData.parse((await api.get('/v1/user/index', { token })).body.data).userInfo

describe('bindAccount', () => {
  test('links the Google account: userInfo shows its e-mail, and Google sign-in now opens this account', async () => {
    const { user, token } = await person()
    expect((await userInfo(token))?.googleEmail).toBeNull()
    const g = googleAccount()
    const res = await bind(token, await idToken(g))
    expect(res.body).toEqual({ code: Code.OK, msg: 'success', data: { provider: 'google', email: g.email } })
    expect(accountsApi.bindAccount.data.parse(res.body.data)).toEqual(bindAccountData.parse(res.body.data))
    expect(await linkOf(user.id)).toEqual({ google_sub: g.sub, google_email: g.email })
    expect((await userInfo(token))?.googleEmail).toBe(g.email)
    // The account's own e-mail is untouched: a Google e-mail is shown beside it, never instead.
    expect((await userInfo(token))?.email).toBe(user.email)

    const signIn = googleNewData.parse((await api.post('/auth/googleNew', { id_token: await idToken(g) })).body.data)
    expect(signIn.isNew).toBe(false)
    expect((await userInfo(signIn.token))?.userId).toBe(user.id)
  })

  test('the same person linking the same Google account again is fine (idempotent), its e-mail refreshed', async () => {
    const { user, token } = await person()
    const g = googleAccount()
    expect((await bind(token, await idToken(g))).body.code).toBe(Code.OK)
    const again = await bind(token, await idToken(g))
    expect(again.body).toMatchObject({ code: Code.OK, data: { email: g.email } })
    const moved = `moved.${n}@gmail.com`
    expect((await bind(token, await idToken({ ...g, email: moved }))).body.code).toBe(Code.OK)
    expect(await linkOf(user.id)).toEqual({ google_sub: g.sub, google_email: moved })
    const rows = await api.db.selectFrom('users').select('id').where('google_sub', '=', g.sub).execute()
    expect(rows).toEqual([{ id: user.id }])
  })

  test('a Google account already linked to someone else is refused with its message; nothing changes', async () => {
    const g = googleAccount()
    const other = await person(g.sub)
    const { user, token } = await person()
    const res = await bind(token, await idToken(g))
    expect(res.body).toEqual({ ...Refusals.GOOGLE_LINKED_ELSEWHERE, data: null })
    expect(await linkOf(user.id)).toEqual({ google_sub: null, google_email: null })
    expect((await linkOf(other.user.id)).google_sub).toBe(g.sub)
  })

  test('a Google account that signed up on its own is "linked elsewhere" too', async () => {
    const g = googleAccount()
    expect((await api.post('/auth/googleNew', { id_token: await idToken(g) })).body.code).toBe(Code.OK)
    const { token } = await person()
    expect((await bind(token, await idToken(g))).body.code).toBe(Refusals.GOOGLE_LINKED_ELSEWHERE.code)
  })

  test('a person already linked to a different Google account is refused; the first link stays', async () => {
    const first = googleAccount()
    const { user, token } = await person()
    expect((await bind(token, await idToken(first))).body.code).toBe(Code.OK)
    const res = await bind(token, await idToken(googleAccount()))
    expect(res.body).toEqual({ ...Refusals.GOOGLE_ALREADY_LINKED, data: null })
    expect(await linkOf(user.id)).toEqual({ google_sub: first.sub, google_email: first.email })
  })

  test('two people linking the same Google account at once: one wins, the other is refused', async () => {
    const g = googleAccount()
    const people = await Promise.all([person(), person(), person()])
    const answers = await Promise.all(people.map(async (p) => bind(p.token, await idToken(g))))
    const codes = answers.map((a) => a.body.code).sort()
    expect(codes).toEqual([Code.OK, Refusals.GOOGLE_LINKED_ELSEWHERE.code, Refusals.GOOGLE_LINKED_ELSEWHERE.code].sort())
    expect(await api.db.selectFrom('users').select('id').where('google_sub', '=', g.sub).execute()).toHaveLength(1)
  })

  test('an e-mail never links: a Google account with this person’s e-mail but unverified is refused', async () => {
    const { user, token } = await person()
    const res = await bind(token, await idToken({ ...googleAccount(), email: user.email, email_verified: false }))
    expect(res.body).toEqual({ ...Refusals.GOOGLE_EMAIL_UNVERIFIED, data: null })
    expect(await linkOf(user.id)).toEqual({ google_sub: null, google_email: null })
  })
})

describe('refused id_tokens: the sign-in checks, nothing linked', () => {
  test.each<[string, () => Promise<string>]>([
    ['a forged signature (a key Google never published)', async () => idToken(googleAccount(), { key: await google.otherKey() })],
    ['an expired token', () => idToken(googleAccount(), { now: api.clock.now() - 2 * 3600_000 })],
    ['a token for another audience', () => idToken({ ...googleAccount(), aud: 'someone-elses-client' })],
    ['a token from another issuer', () => idToken({ ...googleAccount(), iss: 'https://evil.example.com' })],
    ['not a JWT at all', async () => 'not.a.jwt'],
  ])('%s', async (_label, make) => {
    const { user, token } = await person()
    const res = await bind(token, await make())
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...Refusals.BAD_ID_TOKEN, data: null })
    expect(await linkOf(user.id)).toEqual({ google_sub: null, google_email: null })
  })

  test('an id_token is never written to the logs', async () => {
    const { token } = await person()
    const forged = await idToken(googleAccount(), { key: await google.otherKey() })
    await bind(token, forged)
    const good = await idToken(googleAccount())
    await bind(token, good)
    const logs = api.logs.join('\n')
    for (const secret of [forged, good, token]) expect(logs).not.toContain(secret.split('.')[2] ?? secret)
  })
})

describe('bad input and auth', () => {
  test('without a token: 401, nothing checked', async () => {
    const res = await api.post('/v1/user/bindAccount', { provider: 'google', id_token: await idToken(googleAccount()) })
    expect(res.status).toBe(401)
  })

  test.each<[string, unknown, string]>([
    ['another provider', { provider: 'facebook', id_token: 'x' }, 'provider: provider must be google'],
    ['no provider', { id_token: 'x' }, 'provider: provider must be google'],
    ['no id_token', { provider: 'google' }, 'id_token: id_token is required'],
    ['an empty id_token', { provider: 'google', id_token: '' }, 'id_token: id_token is required'],
    ['a huge id_token', { provider: 'google', id_token: 'x'.repeat(9000) }, 'id_token: String must contain at most 8192 character(s)'],
    ['an unknown field', { provider: 'google', id_token: 'x', email: 'a@b.c' }, 'email: Unknown field'],
  ])('%s: 400 naming the field', async (_label, body, msg) => {
    const { token } = await person()
    const res = await api.post('/v1/user/bindAccount', body, { token })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
  })
})
