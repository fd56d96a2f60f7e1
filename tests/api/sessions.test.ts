import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CodeType } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { seedUser, startTestApi, type TestApi } from '../support/api'

/** Tokens: logout, password reset (which signs out everywhere), sign-in by code, expiry. */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
})
afterAll(async () => {
  await api?.close()
})

let n = 0
const fresh = (label: string) => `${label}.${++n}@example.com`
const me = (token: string) => api.get('/v1/user/index', { token })
const OLD = 'old password here'
const NEW = 'brand new password'

describe('logout', () => {
  test('revokes the presented token only', async () => {
    const email = fresh('logout')
    const { token } = await seedUser(api, { email, password: OLD })
    const other = (await api.post<string>('/auth/login', { email, password: OLD })).body.data
    expect((await api.post('/auth/logout', {}, { token })).body).toEqual({ code: Code.OK, msg: 'success', data: null })
    expect((await me(token)).status).toBe(401)
    expect((await me(other)).body.code).toBe(Code.OK)
  })

  test('is idempotent: no body, no token, or a dead token still answers success', async () => {
    const { token } = await seedUser(api, { email: fresh('logout2') })
    expect((await api.post('/auth/logout', undefined, { token })).body.code).toBe(Code.OK)
    expect((await api.post('/auth/logout', undefined, { token })).body.code).toBe(Code.OK)
    expect((await api.post('/auth/logout')).body.code).toBe(Code.OK)
  })
})

describe('resetPassword', () => {
  test('a type 2 code sets the new password and revokes every token', async () => {
    const email = fresh('reset')
    const { token } = await seedUser(api, { email, password: OLD })
    const second = (await api.post<string>('/auth/login', { email, password: OLD })).body.data
    await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PASSWORD })
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)

    const res = await api.post('/auth/resetPassword', { email, password: NEW, verifyCode })
    expect(res.body).toEqual({ code: Code.OK, msg: 'success', data: null })
    expect((await me(token)).status).toBe(401)
    expect((await me(second)).status).toBe(401)
    expect((await api.post('/auth/login', { email, password: OLD })).body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    expect((await api.post('/auth/login', { email, password: NEW })).body.code).toBe(Code.OK)
    // Single use.
    expect((await api.post('/auth/resetPassword', { email, password: 'third password x', verifyCode })).body.code).toBe(
      Refusals.BAD_VERIFY_CODE.code,
    )
  })

  test('a Google-only account gets a password this way', async () => {
    const email = fresh('googler')
    await seedUser(api, { email, password: null, googleSub: `sub-${n}` })
    await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PASSWORD })
    const res = await api.post('/auth/resetPassword', { email, password: NEW, verifyCode: api.lastCode(email, 2) })
    expect(res.body.code).toBe(Code.OK)
    expect((await api.post('/auth/login', { email, password: NEW })).body.code).toBe(Code.OK)
  })

  test('refuses a code of another type, a common password, and short ones', async () => {
    const email = fresh('reset2')
    const { token } = await seedUser(api, { email, password: OLD })
    await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN })
    const loginCode = api.lastCode(email, CodeType.LOGIN)
    expect((await api.post('/auth/resetPassword', { email, password: NEW, verifyCode: loginCode })).body.code).toBe(
      Refusals.BAD_VERIFY_CODE.code,
    )

    await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PASSWORD })
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)
    const common = await api.post('/auth/resetPassword', { email, password: 'iloveyou', verifyCode })
    expect(common.body).toEqual({ code: Refusals.WEAK_PASSWORD.code, msg: 'This password is too common. Choose another one', data: null })
    const short = await api.post('/auth/resetPassword', { email, password: 'seven77', verifyCode })
    expect(short.status).toBe(400)
    expect(short.body.msg).toBe('password: Password must be at least 8 characters')
    // Nothing changed: old password and token still work.
    expect((await me(token)).body.code).toBe(Code.OK)
    expect((await api.post('/auth/login', { email, password: OLD })).body.code).toBe(Code.OK)
  })
})

describe('loginByCode', () => {
  test('a type 3 code answers a token, once', async () => {
    const email = fresh('bycode')
    await seedUser(api, { email })
    await api.post('/auth/sendEmailCode', { email: email.toUpperCase(), type: CodeType.LOGIN })
    const verifyCode = api.lastCode(email, CodeType.LOGIN)
    const res = await api.post<string>('/auth/loginByCode', { email, verifyCode })
    expect(res.body.code).toBe(Code.OK)
    expect((await me(res.body.data)).body.data).toMatchObject({ userInfo: { email } })
    expect((await api.post('/auth/loginByCode', { email, verifyCode })).body.code).toBe(Refusals.BAD_VERIFY_CODE.code)
  })

  test('a register code does not sign in', async () => {
    const email = fresh('bycode2')
    await api.post('/auth/sendEmailCode', { email, type: CodeType.REGISTER })
    const res = await api.post('/auth/loginByCode', { email, verifyCode: api.lastCode(email) })
    expect(res.body.code).toBe(Refusals.BAD_VERIFY_CODE.code)
  })
})

describe('token lifetime', () => {
  test('a token lives 30 days (TOKEN_TTL_DAYS), then answers 401', async () => {
    const email = fresh('ttl')
    await seedUser(api, { email, password: OLD })
    const token = (await api.post<string>('/auth/login', { email, password: OLD })).body.data
    api.clock.advance(30 * 86_400_000 - 1_000)
    expect((await me(token)).body.code).toBe(Code.OK)
    api.clock.advance(1_000)
    const expired = await me(token)
    expect(expired.status).toBe(401)
    expect(expired.body.msg).toBe('Login expired, please login again')
  })
})
