import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import { Refusals } from '#contract/refusals'
import * as deleteAccount from '~/routes/delete-account'
import { getSession } from '~/utils/session.server'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { sold, useSellingApi } from '../support/selling'
import { walletUser, withdraw } from '../support/wallet'
import { type CookieJar, jsonOf, load, makeRequest, signedInJar, submit } from '../support/web'

/** /delete-account through its real loader and action, with real Requests, against the real api. */
const api = useSellingApi({ web: true })
const PASSWORD = 'violet tangerine harbour'
const PATH = '/delete-account'

const tokenOf = async (jar: CookieJar) => (await getSession(makeRequest('/', { jar }))).get('token')

/** A person with a password (and a PIN, a bank card and a balance if asked), signed in. */
async function person(options: { balance?: number } = {}) {
  const { user } = await seedUser(api, { email: newEmail('pw'), password: PASSWORD })
  const u = await walletUser(api, options)
  await api.db.updateTable('users').set({ password_hash: user.password_hash }).where('id', '=', u.userId).execute()
  return { ...u, jar: await signedInJar(u.token) }
}

describe('the guard', () => {
  it('a visitor is sent to sign in, from the page and from a form post alike', async () => {
    expect(await load(deleteAccount.loader, PATH)).toHaveRedirect('/login?redirectTo=%2Fdelete-account')
    const posted = await submit(deleteAccount.action, PATH, { intent: 'delete', password: PASSWORD })
    expect(posted).toHaveRedirect('/login')
  })

  it('a token the api no longer knows: signed out, to /login, with the catalogue’s message', async () => {
    const u = await person()
    await api.post('/auth/logout', {}, { token: u.token })
    const res = await load(deleteAccount.loader, PATH, u.jar)
    expect(res).toHaveRedirect('/login?redirectTo=%2Fdelete-account')
    await expect(res).toSendToast({ type: 'error', message: 'Login expired, please login again' })
  })
})

describe('before the form', () => {
  it('an account with nothing open: the password form', async () => {
    const u = await person()
    expect(await jsonOf(await load(deleteAccount.loader, PATH, u.jar))).toMatchObject({ confirmWith: 'password', blocker: null })
  })

  it('money in the wallet: the reason with the amount; a post anyway is refused and deletes nothing', async () => {
    const u = await person({ balance: 1_250_000 })
    const data = await jsonOf(await load(deleteAccount.loader, PATH, u.jar))
    expect(data).toMatchObject({
      balance: 1_250_000,
      blocker: { code: Refusals.DELETE_BALANCE_LEFT.code, msg: 'Withdraw your ₦12,500.00 balance first, then delete your account' },
    })
    const res = await submit(deleteAccount.action, PATH, { intent: 'delete', password: PASSWORD }, u.jar)
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error['']).toEqual(['Withdraw your ₦12,500.00 balance first, then delete your account'])
    expect(JSON.stringify(reply)).not.toContain(PASSWORD)
    expect((await api.get('/v1/user/index', { token: u.token })).status).toBe(200)
  })

  it('money on hold, and an open order, each say so', async () => {
    const held = await person({ balance: 1_000_000 })
    await withdraw(api, held, 1_000_000)
    expect((await jsonOf(await load(deleteAccount.loader, PATH, held.jar))).blocker).toEqual({
      code: Refusals.DELETE_MONEY_ON_HOLD.code,
      msg: '₦10,000.00 is on hold for a withdrawal. Wait until it reaches your bank, then delete your account',
    })
    const selling = await person()
    await sold(api, selling.token)
    expect((await jsonOf(await load(deleteAccount.loader, PATH, selling.jar))).blocker).toEqual(Refusals.DELETE_ORDERS_OPEN)
  })
})

describe('with the password', () => {
  it('a wrong one keeps the form, says why, never sends the password back, deletes nothing', async () => {
    const u = await person()
    const res = await submit(deleteAccount.action, PATH, { intent: 'delete', password: 'not my password' }, u.jar)
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply).toMatchObject({ mode: 'password', refused: ['password'] })
    expect(reply.result.error['']).toEqual([Refusals.DELETE_WRONG_PASSWORD.msg])
    expect(JSON.stringify(reply)).not.toContain('not my password')
    expect(res.headers.get('Set-Cookie')).toBeNull()
    expect(await tokenOf(u.jar)).toBe(u.token)
    expect((await api.get('/v1/user/index', { token: u.token })).status).toBe(200)
  })

  it.each([
    [{ intent: 'delete' }, 'Password is required'],
    [{ intent: 'delete', password: '' }, 'Password is required'],
    [{ intent: 'delete', password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
  ])('bad input %j: a field message, nothing sent to the api', async (form, message) => {
    const u = await person()
    const calls = api.logs.filter((l) => l.includes('/v1/user/delAccount"')).length
    const res = await submit(deleteAccount.action, PATH, form as Record<string, string>, u.jar)
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.password).toEqual([message])
    expect(api.logs.filter((l) => l.includes('/v1/user/delAccount"')).length).toBe(calls)
  })

  it('the right one: the account goes, the cookie holds no token, Home says so; the old token is dead', async () => {
    const u = await person()
    const res = await submit(deleteAccount.action, PATH, { intent: 'delete', password: PASSWORD }, u.jar)
    expect(res).toHaveRedirect('/')
    // A full page load: nothing of the account stays in the browser's memory.
    expect(res.headers.get('X-Remix-Reload-Document')).toBe('true')
    await expect(res).toSendToast({ type: 'success', message: 'Your account has been deleted' })
    expect(await tokenOf(u.jar)).toBeUndefined()
    const session = await getSession(makeRequest('/', { jar: u.jar }))
    expect(session.get('login_email')).toBeUndefined()
    expect((await api.get('/v1/user/index', { token: u.token })).status).toBe(401)
    // Signed out, the page is for signed-in people only.
    expect(await load(deleteAccount.loader, PATH, u.jar)).toHaveRedirect('/login?redirectTo=%2Fdelete-account')
  })
})

describe('with an e-mail code (an account without a password)', () => {
  it('sends the code to the person’s own address, refuses a wrong one, deletes with the right one', async () => {
    const email = newEmail('gonly')
    const { token } = await seedUser(api, { email, password: null, googleSub: `g-${randomUUID()}` })
    const jar = await signedInJar(token, { login_email: email })
    expect(await jsonOf(await load(deleteAccount.loader, PATH, jar))).toMatchObject({ confirmWith: 'code', blocker: null })

    const sent = await submit(deleteAccount.action, PATH, { intent: 'send-code', email: 'someone.else@example.com' }, jar)
    expect(sent.status).toBe(200)
    expect(await jsonOf(sent)).toMatchObject({ mode: 'code', step: 'verify', toast: { type: 'success' } })
    expect(api.mails.some((m) => m.to === 'someone.else@example.com')).toBe(false)
    const verifyCode = api.lastCode(email, CodeType.DELETE_ACCOUNT)

    const wrong = await submit(
      deleteAccount.action,
      PATH,
      { intent: 'delete-code', verifyCode: verifyCode === '000000' ? '000001' : '000000' },
      jar,
    )
    expect(wrong.status).toBe(400)
    const reply = await jsonOf(wrong)
    expect(reply).toMatchObject({ mode: 'code', step: 'verify', refused: ['verifyCode'] })
    expect(reply.result.error['']).toEqual([Refusals.BAD_VERIFY_CODE.msg])
    expect(JSON.stringify(reply)).not.toContain(verifyCode)
    const malformed = await jsonOf(await submit(deleteAccount.action, PATH, { intent: 'delete-code', verifyCode: '12ab' }, jar))
    expect(malformed.result.error.verifyCode).toEqual(['Verification code is the 6 digits we e-mailed you'])

    const res = await submit(deleteAccount.action, PATH, { intent: 'delete-code', verifyCode }, jar)
    expect(res).toHaveRedirect('/')
    await expect(res).toSendToast({ type: 'success', message: 'Your account has been deleted' })
    expect(await tokenOf(jar)).toBeUndefined()
    expect((await api.get('/v1/user/index', { token })).status).toBe(401)
  })

  it('a password sent for an account without one is refused with the way that works', async () => {
    const { token } = await seedUser(api, { email: newEmail('gonly'), password: null, googleSub: `g-${randomUUID()}` })
    const res = await submit(deleteAccount.action, PATH, { intent: 'delete', password: PASSWORD }, await signedInJar(token))
    expect((await jsonOf(res)).result.error['']).toEqual([Refusals.DELETE_USE_CODE.msg])
    expect((await api.get('/v1/user/index', { token })).status).toBe(200)
  })
})
