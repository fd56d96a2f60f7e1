import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import * as root from '~/root'
import * as account from '~/routes/account'
import * as editProfile from '~/routes/edit-profile'
import * as forgot from '~/routes/forgot-password'
import * as login from '~/routes/login'
import * as logout from '~/routes/logout'
import * as register from '~/routes/register'
import { sendCodeStep } from '~/upstream/email-code.server'
import { lockoutMessages } from '~/utils/messages'
import { getSession } from '~/utils/session.server'
import { seedUser, startTestApi } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { CookieJar, freshContext, jsonOf, load, loadDocument, makeRequest, responseOf, signedInJar, submit } from '../support/web'

/** The account flows through the real loaders and actions, against the real api on a throw-away DB. */
const api = useTestApi()
const PASSWORD = 'correct horse battery staple'

async function registerThrough(jar: CookieJar, email: string, password = PASSWORD) {
  const sent = await submit(register.action, '/register', { intent: 'send-code', email }, jar)
  expect(sent.status).toBe(200)
  expect(await jsonOf(sent)).toMatchObject({ step: 'verify', email, toast: { type: 'success' } })
  const verifyCode = api.lastCode(email, CodeType.REGISTER)
  return submit(register.action, '/register', { intent: 'register', email, verifyCode, password, redirectTo: '' }, jar)
}

async function tokenOf(jar: CookieJar) {
  return (await getSession(makeRequest('/', { jar }))).get('token')
}

/** How many times the api answered /v1/user/index so far (its request log, one line a request). */
const userIndexCalls = () => api.logs.filter((line) => line.includes('"path":"/v1/user/index"')).length

describe('register with the e-mailed code', () => {
  it('creates the account, signs in and greets with a toast; the root then knows the user', async () => {
    const jar = new CookieJar()
    const email = newEmail()
    expect(await registerThrough(jar, email)).toHaveRedirect('/')
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

  it('greets a new person as new on the first page, and as returning after that', async () => {
    const jar = new CookieJar()
    await registerThrough(jar, newEmail('new'))
    expect(await jsonOf(await load(root.loader, '/', jar))).toMatchObject({ welcome: true })
    expect(await jsonOf(await load(root.loader, '/', jar))).toMatchObject({ welcome: false })
    const again = new CookieJar()
    const email = newEmail('again')
    await registerThrough(new CookieJar(), email)
    await submit(login.action, '/login', { intent: 'password', email, password: PASSWORD }, again)
    expect(await jsonOf(await load(root.loader, '/', again))).toMatchObject({ welcome: false })
  })

  it('a wrong code is refused beside the form; only the code starts empty', async () => {
    const jar = new CookieJar()
    const email = newEmail()
    await submit(register.action, '/register', { intent: 'send-code', email }, jar)
    const bad = await submit(register.action, '/register', { intent: 'register', email, verifyCode: '000000', password: PASSWORD }, jar)
    expect(bad.status).toBe(400)
    const data = await jsonOf(bad)
    expect(data).toMatchObject({ step: 'verify', email, refused: ['verifyCode'] })
    expect(data.result.error['']).toEqual(['The verification code is wrong or has expired'])
    expect(JSON.stringify(data)).not.toContain(PASSWORD)
    expect(JSON.stringify(data)).not.toContain('000000')
    expect(await tokenOf(jar)).toBeUndefined()
  })

  it('a password the api refuses empties the password and keeps the code', async () => {
    const email = newEmail()
    await submit(register.action, '/register', { intent: 'send-code', email })
    const verifyCode = api.lastCode(email, CodeType.REGISTER)
    const weak = await jsonOf(await submit(register.action, '/register', { intent: 'register', email, verifyCode, password: 'password1' }))
    expect(weak.refused).toEqual(['password'])
    expect(weak.result.error['']).toEqual(['This password is too common. Choose another one'])
    // Field errors name the fields refused: a short password does not take the code with it.
    const short = await jsonOf(await submit(register.action, '/register', { intent: 'register', email, verifyCode, password: 'short' }))
    expect(short.refused).toEqual(['password'])
  })

  it('bad input gets field messages and stores nothing', async () => {
    const jar = new CookieJar()
    const res = await submit(
      register.action,
      '/register',
      { intent: 'register', email: 'not-an-email', verifyCode: '12', password: 'short' },
      jar,
    )
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
    await seedUser(api, { email, password: PASSWORD })

    const jar = new CookieJar()
    // A visitor opening /account is sent to /login with the way back.
    expect(await load(account.loader, '/account', jar)).toHaveRedirect('/login?redirectTo=%2Faccount')

    const wrong = await submit(
      login.action,
      '/login',
      { intent: 'password', email, password: 'not the password', redirectTo: '/account' },
      jar,
    )
    expect(wrong.status).toBe(400)
    expect(await jsonOf(wrong)).toMatchObject({ refused: ['password'], result: { error: { '': ['Incorrect e-mail or password'] } } })

    const ok = await submit(login.action, '/login', { intent: 'password', email, password: PASSWORD, redirectTo: '/account' }, jar)
    expect(ok).toHaveRedirect('/account')
    await expect(ok).toSendToast({ type: 'success', message: 'Welcome back' })
    const token = await tokenOf(jar)
    expect(token).toBeTruthy()
    expect((await jsonOf(await load(root.loader, '/account', jar))).user.email).toBe(email)

    // Signed in, Login and Register send you home.
    expect(await load(login.loader, '/login', jar)).toHaveRedirect('/')
    expect(await load(register.loader, '/register', jar)).toHaveRedirect('/')

    const out = await submit(logout.action, '/logout', {}, jar)
    expect(out).toHaveRedirect('/')
    expect(await tokenOf(jar)).toBeUndefined()
    expect((await api.get('/v1/user/index', { token })).status).toBe(401)
  })

  it('/account and /edit-profile cost one /v1/user/index call a page: the root’s, read by the screen', async () => {
    const { token } = await seedUser(api, { email: newEmail('once') })
    const jar = await signedInJar(token)
    for (const [path, screen] of [
      ['/account', account],
      ['/edit-profile', editProfile],
    ] as const) {
      const before = userIndexCalls()
      // A document request runs the root's and the screen's loaders side by side, sharing the
      // request memo (server.ts): the screen reads the same answer (Account: its tasks).
      const [rootData, screenData] = await loadDocument([root.loader, screen.loader], path, jar)
      expect((await jsonOf(rootData)).user.userId).toBeTruthy()
      // The screen's own data never carries the person: that is the root's.
      expect((await jsonOf(screenData))?.user).toBeUndefined()
      await new Promise((resolve) => setTimeout(resolve, 20)) // the api logs a request when it finishes
      expect(userIndexCalls() - before).toBe(1)
    }
  })

  it('too many failed sign-ins: its own sentence and the way to code sign-in, not "Request failed (429)"', async () => {
    const strict = await startTestApi({ config: { loginFailLimit: 2 } })
    const saved = process.env.API_BASE_URL
    process.env.API_BASE_URL = strict.url
    try {
      const email = newEmail('locked')
      await seedUser(strict, { email, password: PASSWORD })
      let data
      for (let i = 0; i < 3; i++) {
        data = await jsonOf(await submit(login.action, '/login', { intent: 'password', email, password: `wrong ${i} password` }))
      }
      expect(data.result.error['']).toEqual([lockoutMessages.tooManyAttempts(15)])
      expect(data.lockout).toBe(true)
      expect(JSON.stringify(data)).not.toContain('Request failed')
    } finally {
      process.env.API_BASE_URL = saved
      await strict.close()
    }
  })

  it('refuses foreign redirect targets after login', async () => {
    const email = newEmail()
    await seedUser(api, { email, password: PASSWORD })
    for (const target of ['//evil.example', 'https://evil.example/x', '/\\evil.example', '/%5Cevil.example', '%2F%2Fevil.example']) {
      const res = await submit(
        login.action,
        '/login',
        { intent: 'password', email, password: PASSWORD, redirectTo: target },
        new CookieJar(),
      )
      expect(res).toHaveRedirect('/')
    }
  })

  it('signs in with an e-mailed code', async () => {
    const email = newEmail()
    await seedUser(api, { email })
    const jar = new CookieJar()
    const sent = await jsonOf(await submit(login.action, '/login?mode=code', { intent: 'send-code', email }, jar))
    expect(sent).toMatchObject({ mode: 'code', step: 'verify', email })
    const wrong = await jsonOf(await submit(login.action, '/login?mode=code', { intent: 'code', email, verifyCode: '000000' }, jar))
    expect(wrong).toMatchObject({ mode: 'code', step: 'verify', email, refused: ['verifyCode'] })
    const verifyCode = api.lastCode(email, CodeType.LOGIN)
    const res = await submit(login.action, '/login?mode=code', { intent: 'code', email, verifyCode, redirectTo: '' }, jar)
    expect(res).toHaveRedirect('/')
    expect(await tokenOf(jar)).toBeTruthy()
  })
})

describe('forgot password', () => {
  it('resets with the code, signs out every session, and the new password works', async () => {
    const email = newEmail()
    const { token: oldToken } = await seedUser(api, { email, password: PASSWORD })

    const jar = new CookieJar()
    await submit(forgot.action, '/forgot-password', { intent: 'send-code', email }, jar)
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)
    const newPassword = 'a brand new passphrase'
    const res = await submit(forgot.action, '/forgot-password', { intent: 'reset', email, verifyCode, password: newPassword }, jar)
    expect(res).toHaveRedirect('/login')
    await expect(res).toSendToast({ type: 'success', message: 'Password changed. Sign in with your new password.' })

    expect((await api.get('/v1/user/index', { token: oldToken })).status).toBe(401)
    expect(await submit(login.action, '/login', { intent: 'password', email, password: newPassword }, new CookieJar())).toHaveRedirect('/')
  })

  it('/login then shows the address the password was reset for, once, and never in the URL', async () => {
    const email = newEmail()
    await seedUser(api, { email, password: PASSWORD })
    const jar = new CookieJar()
    await submit(forgot.action, '/forgot-password', { intent: 'send-code', email }, jar)
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)
    const res = await submit(
      forgot.action,
      '/forgot-password',
      { intent: 'reset', email, verifyCode, password: 'a brand new passphrase' },
      jar,
    )
    expect(res.headers.get('Location')).toBe('/login')

    const first = await jsonOf(await load(login.loader, '/login', jar))
    expect(first.email).toBe(email)
    // Read once: a second visit starts empty, and another device never had it.
    expect((await jsonOf(await load(login.loader, '/login', jar))).email).toBeNull()
    expect((await jsonOf(await load(login.loader, '/login', new CookieJar()))).email).toBeNull()
  })
})

describe('the code step of the signed-in types (4 reset PIN, 5 delete account)', () => {
  it('sends the code to the person’s own address with no e-mail field in the form', async () => {
    const email = newEmail('own')
    const { token } = await seedUser(api, { email })
    for (const fields of [{ login_email: email }, {}]) {
      const jar = await signedInJar(token, fields) // with the address cached, and without it
      const form = new FormData()
      form.set('intent', 'send-code')
      const res = responseOf(await sendCodeStep(makeRequest('/set-pin', { jar }), freshContext(), form, CodeType.RESET_PIN))
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(200)
      expect(await res.json()).toMatchObject({ step: 'verify', toast: { type: 'success' } })
      expect(api.lastCode(email, CodeType.RESET_PIN)).toMatch(/^\d{6}$/)
      api.clock.advance(61_000) // past "a minute before asking for another code"
    }
  })

  it('refuses a visitor', async () => {
    const form = new FormData()
    form.set('intent', 'send-code')
    await expect(sendCodeStep(makeRequest('/set-pin'), freshContext(), form, CodeType.DELETE_ACCOUNT)).rejects.toHaveRedirect(/^\/login/)
  })
})

describe('edit profile', () => {
  it('validates the nickname, then saves it and the user info is reloaded', async () => {
    const jar = await signedInJar((await seedUser(api, { email: newEmail() })).token)
    const empty = await submit(editProfile.action, '/edit-profile', { userName: '   ' }, jar)
    expect(empty.status).toBe(400)
    expect((await jsonOf(empty)).result.error.userName).toEqual(['Nickname is required'])
    const long = await submit(editProfile.action, '/edit-profile', { userName: 'x'.repeat(21) }, jar)
    expect((await jsonOf(long)).result.error.userName).toEqual(['Nickname must be at most 20 characters'])

    const saved = await submit(editProfile.action, '/edit-profile', { userName: 'Ada Seller' }, jar)
    expect(saved).toHaveRedirect('/account')
    const next = await jsonOf(await load(root.loader, '/account', jar))
    expect(next.user.userName).toBe('Ada Seller')
    expect(next.toast.message).toBe('Profile updated')
    const session = await getSession(makeRequest('/', { jar }))
    expect(session.get('login_username')).toBe('Ada Seller')
  })
})
