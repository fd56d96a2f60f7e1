import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PASSWORD_MAX, PASSWORD_MIN } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { registerUser, seedUser, startTestApi, type TestApi } from '../support/api'

/** Registration and password sign-in (SPEC §7 /auth/register, /auth/login). */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
})
afterAll(async () => {
  await api?.close()
})

const GOOD_PASSWORD = 'tram lines at dusk'

describe('register', () => {
  test('a mailed code, a password and the e-mail make an account and a token', async () => {
    const token = await registerUser(api, 'New.User@Example.com', GOOD_PASSWORD)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const me = await api.get('/v1/user/index', { token })
    expect(me.body.data).toMatchObject({
      userInfo: { email: 'new.user@example.com', userName: expect.stringMatching(/^Seller \d{4}$/), headImg: null },
    })
  })

  test('the password must be 8 to 128 characters; both ends are accepted', async () => {
    const email = 'lengths@example.com'
    await api.post('/auth/sendEmailCode', { email })
    const verifyCode = api.lastCode(email, 1)
    const short = await api.post('/auth/register', { email, password: 'x'.repeat(PASSWORD_MIN - 1) + '', verifyCode })
    expect(short.status).toBe(400)
    expect(short.body.msg).toBe('password: Password must be at least 8 characters')
    const long = await api.post('/auth/register', { email, password: 'x'.repeat(PASSWORD_MAX + 1), verifyCode })
    expect(long.status).toBe(400)
    expect(long.body.msg).toBe('password: Password must be at most 128 characters')
    // Refused input spends nothing: the same code still registers, with the longest password.
    const longest = 'Ab3$'.repeat(PASSWORD_MAX / 4)
    const ok = await api.post<string>('/auth/register', { email, password: longest, verifyCode })
    expect(ok.body.code).toBe(Code.OK)
    const login = await api.post('/auth/login', { email, password: longest })
    expect(login.body.code).toBe(Code.OK)
  })

  test('exactly 8 characters is enough', async () => {
    const token = await registerUser(api, 'eight@example.com', 'kq7#Lm2!')
    expect(token).toBeTruthy()
  })

  test('a common password is refused, whatever its case, and the code survives', async () => {
    const email = 'common@example.com'
    await api.post('/auth/sendEmailCode', { email })
    const verifyCode = api.lastCode(email, 1)
    for (const password of ['password1', 'PassWord1', 'qwertyuiop', '12345678']) {
      const res = await api.post('/auth/register', { email, password, verifyCode })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ code: Refusals.WEAK_PASSWORD.code, msg: 'This password is too common. Choose another one', data: null })
    }
    const ok = await api.post('/auth/register', { email, password: GOOD_PASSWORD, verifyCode })
    expect(ok.body.code).toBe(Code.OK)
  })

  test('without the right code nothing is created, and a taken address is not revealed', async () => {
    await seedUser(api, { email: 'taken@example.com', password: GOOD_PASSWORD })
    for (const email of ['taken@example.com', 'free@example.com']) {
      const res = await api.post('/auth/register', { email, password: GOOD_PASSWORD, verifyCode: '000000' })
      expect(res.body).toEqual({ code: Refusals.BAD_VERIFY_CODE.code, msg: 'The verification code is wrong or has expired', data: null })
    }
    const login = await api.post('/auth/login', { email: 'free@example.com', password: GOOD_PASSWORD })
    expect(login.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
  })

  test('an address that got an account after its code was mailed is EMAIL_TAKEN', async () => {
    const email = 'race@example.com'
    await api.post('/auth/sendEmailCode', { email })
    const verifyCode = api.lastCode(email, 1)
    await seedUser(api, { email }) // e.g. a Google sign-in in between
    const res = await api.post('/auth/register', { email, password: GOOD_PASSWORD, verifyCode })
    expect(res.body.code).toBe(Refusals.EMAIL_TAKEN.code)
    expect(res.body.msg).toMatch(/already exists/)
  })
})

describe('login', () => {
  const email = 'login@example.com'
  beforeAll(async () => {
    await seedUser(api, { email, password: GOOD_PASSWORD })
  })

  test('the right pair answers a token, e-mail case and spaces aside', async () => {
    const res = await api.post<string>('/auth/login', { email: '  LOGIN@example.COM ', password: GOOD_PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body.code).toBe(Code.OK)
    expect(typeof res.body.data).toBe('string')
    const me = await api.get('/v1/user/index', { token: res.body.data })
    expect(me.body.code).toBe(Code.OK)
  })

  test('every sign-in makes a different token', async () => {
    const a = await api.post<string>('/auth/login', { email, password: GOOD_PASSWORD })
    const b = await api.post<string>('/auth/login', { email, password: GOOD_PASSWORD })
    expect(a.body.data).not.toBe(b.body.data)
  })

  test('a wrong password, an unknown address and a Google-only account get the same answer', async () => {
    await seedUser(api, { email: 'googleonly@example.com', password: null, googleSub: 'g-only' })
    const answers = await Promise.all([
      api.post('/auth/login', { email, password: GOOD_PASSWORD + '!' }),
      api.post('/auth/login', { email: 'nobody@example.com', password: GOOD_PASSWORD }),
      api.post('/auth/login', { email: 'googleonly@example.com', password: GOOD_PASSWORD }),
    ])
    for (const res of answers) {
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ code: Refusals.BAD_CREDENTIALS.code, msg: 'Incorrect e-mail or password', data: null })
    }
  })

  test("login accepts any stored password length up to 128, even under today's minimum", async () => {
    await seedUser(api, { email: 'old@example.com', password: 'short' })
    const res = await api.post('/auth/login', { email: 'old@example.com', password: 'short' })
    expect(res.body.code).toBe(Code.OK)
    const long = await api.post('/auth/login', { email: 'old@example.com', password: 'x'.repeat(129) })
    expect(long.status).toBe(400)
  })
})
