import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import * as root from '~/root'
import * as account from '~/routes/account'
import * as editProfile from '~/routes/edit-profile'
import * as forgot from '~/routes/forgot-password'
import * as login from '~/routes/login'
import * as logout from '~/routes/logout'
import * as register from '~/routes/register'
import { getSession } from '~/utils/session.server'
import { startTestApi, type TestApi } from '../support/api'
import { CookieJar, expectRedirect, jsonOf, load, makeRequest, submit } from '../support/web'

/** The account flows through the real loaders and actions, against the real api on a throw-away DB. */
let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
  process.env.API_BASE_URL = api.url
})
afterAll(async () => {
  await api?.close()
})

let n = 0
const newEmail = () => `person${++n}.${Date.now()}@example.com`
const PASSWORD = 'correct horse battery staple'

async function registerThrough(jar: CookieJar, email: string, password = PASSWORD) {
  const sent = await submit(register.action, '/register', { intent: 'send-code', email }, jar)
  expect(sent.status).toBe(200)
  const step = await jsonOf(sent)
  expect(step).toMatchObject({ step: 'verify', email, toast: { type: 'success' } })
  const verifyCode = api.lastCode(email, CodeType.REGISTER)
  return submit(register.action, '/register', { intent: 'register', email, verifyCode, password, redirectTo: '' }, jar)
}

async function tokenOf(jar: CookieJar) {
  return (await getSession(makeRequest('/', { jar }))).get('token')
}

describe('register with the e-mailed code', () => {
  it('creates the account, signs in and greets with a toast; the root then knows the user', async () => {
    const jar = new CookieJar()
    const email = newEmail()
    const done = await registerThrough(jar, email)
    expectRedirect(done, '/')
    expect(await tokenOf(jar)).toMatch(/.{20,}/)
    const home = await jsonOf(await load(root.loader, '/', jar))
    expect(home.user).toMatchObject({ email, userName: expect.any(String) })
    expect(home.toast).toMatchObject({ type: 'success', message: 'Your account is ready. Welcome!', durationMs: 3000 })
    // The flash is read once.
    expect((await jsonOf(await load(root.loader, '/', jar))).toast).toBeNull()
    // login_* are cached from the user info.
    const session = await getSession(makeRequest('/', { jar }))
    expect(session.get('login_email')).toBe(email)
    expect(session.get('login_id')).toBe(home.user.userId)
    // The token lives in the httpOnly cookie only: never in what the page or its scripts receive.
    expect(JSON.stringify(home)).not.toContain(await tokenOf(jar))
  })

  it('a wrong code is refused with the api message, keeps the e-mail, echoes no password or code', async () => {
    const jar = new CookieJar()
    const email = newEmail()
    await submit(register.action, '/register', { intent: 'send-code', email }, jar)
    const bad = await submit(register.action, '/register', { intent: 'register', email, verifyCode: '000000', password: PASSWORD }, jar)
    expect(bad.status).toBe(400)
    const data = await jsonOf(bad)
    expect(data.step).toBe('verify')
    expect(data.email).toBe(email)
    expect(data.toast.type).toBe('error')
    expect(data.result.error['']?.[0]).toBeTruthy()
    expect(JSON.stringify(data)).not.toContain(PASSWORD)
    expect(JSON.stringify(data)).not.toContain('000000')
    expect(await tokenOf(jar)).toBeUndefined()
  })

  it('bad input gets field messages and stores nothing', async () => {
    const jar = new CookieJar()
    const res = await submit(register.action, '/register', { intent: 'register', email: 'not-an-email', verifyCode: '12', password: 'short' }, jar)
    expect(res.status).toBe(400)
    const data = await jsonOf(res)
    expect(data.result.error.email).toEqual(['Enter a valid e-mail address'])
    expect(data.result.error.verifyCode).toEqual(['Verification code is the 6 digits we e-mailed you'])
    expect(data.result.error.password).toEqual(['Password must be at least 8 characters'])
    expect(api.mails.filter((m) => m.to === 'not-an-email')).toHaveLength(0)
  })
})

describe('login, logout, guards', () => {
  it('password login → the page asked for; wrong password → message; logout revokes the token at the api', async () => {
    const email = newEmail()
    await registerThrough(new CookieJar(), email)

    const jar = new CookieJar()
    // A visitor opening /account is sent to /login with the way back.
    expectRedirect(await load(account.loader, '/account', jar), '/login?redirectTo=%2Faccount')

    const wrong = await submit(login.action, '/login', { intent: 'password', email, password: 'not the password', redirectTo: '/account' }, jar)
    expect(wrong.status).toBe(400)
    expect((await jsonOf(wrong)).toast.message).toBe('Incorrect e-mail or password')

    const ok = await submit(login.action, '/login', { intent: 'password', email, password: PASSWORD, redirectTo: '/account' }, jar)
    expectRedirect(ok, '/account')
    const token = await tokenOf(jar)
    expect(token).toBeTruthy()
    const page = await jsonOf(await load(account.loader, '/account', jar))
    expect(page.user.email).toBe(email)

    // Signed in, Login and Register send you home.
    expectRedirect(await load(login.loader, '/login', jar), '/')
    expectRedirect(await load(register.loader, '/register', jar), '/')

    const out = await submit(logout.action, '/logout', {}, jar)
    expectRedirect(out, '/')
    expect(await tokenOf(jar)).toBeUndefined()
    expect((await api.get('/v1/user/index', { token })).status).toBe(401)
  })

  it('refuses foreign redirect targets after login', async () => {
    const email = newEmail()
    await registerThrough(new CookieJar(), email)
    for (const target of ['//evil.example', 'https://evil.example/x', '/\\evil.example', '/%5Cevil.example', '%2F%2Fevil.example']) {
      const jar = new CookieJar()
      const res = await submit(login.action, '/login', { intent: 'password', email, password: PASSWORD, redirectTo: target }, jar)
      expectRedirect(res, '/')
    }
  })

  it('signs in with an e-mailed code', async () => {
    const email = newEmail()
    await registerThrough(new CookieJar(), email)
    const jar = new CookieJar()
    const sent = await jsonOf(await submit(login.action, '/login?mode=code', { intent: 'send-code', email }, jar))
    expect(sent).toMatchObject({ mode: 'code', step: 'verify', email })
    const verifyCode = api.lastCode(email, CodeType.LOGIN)
    const res = await submit(login.action, '/login?mode=code', { intent: 'code', email, verifyCode, redirectTo: '' }, jar)
    expectRedirect(res, '/')
    expect(await tokenOf(jar)).toBeTruthy()
  })
})

describe('forgot password', () => {
  it('resets with the code, signs out every session, and the new password works', async () => {
    const email = newEmail()
    const first = new CookieJar()
    await registerThrough(first, email)
    const oldToken = await tokenOf(first)

    const jar = new CookieJar()
    await submit(forgot.action, '/forgot-password', { intent: 'send-code', email }, jar)
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)
    const newPassword = 'a brand new passphrase'
    const res = await submit(forgot.action, '/forgot-password', { intent: 'reset', email, verifyCode, password: newPassword }, jar)
    expectRedirect(res, '/login')
    const next = await jsonOf(await load(root.loader, '/login', jar))
    expect(next.toast.message).toBe('Password changed. Sign in with your new password.')

    expect((await api.get('/v1/user/index', { token: oldToken })).status).toBe(401)
    const again = new CookieJar()
    expectRedirect(await submit(login.action, '/login', { intent: 'password', email, password: newPassword }, again), '/')
  })
})

describe('edit profile', () => {
  it('validates the nickname, then saves it and the user info is reloaded', async () => {
    const jar = new CookieJar()
    await registerThrough(jar, newEmail())
    const empty = await submit(editProfile.action, '/edit-profile', { userName: '   ' }, jar)
    expect(empty.status).toBe(400)
    expect((await jsonOf(empty)).result.error.userName).toEqual(['Nickname is required'])
    const long = await submit(editProfile.action, '/edit-profile', { userName: 'x'.repeat(33) }, jar)
    expect((await jsonOf(long)).result.error.userName).toEqual(['Nickname must be at most 32 characters'])

    const saved = await submit(editProfile.action, '/edit-profile', { userName: 'Ada Seller' }, jar)
    expectRedirect(saved, '/account')
    const next = await jsonOf(await load(root.loader, '/account', jar))
    expect(next.user.userName).toBe('Ada Seller')
    expect(next.toast.message).toBe('Profile updated')
    const session = await getSession(makeRequest('/', { jar }))
    expect(session.get('login_username')).toBe('Ada Seller')
  })
})
