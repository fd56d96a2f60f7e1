import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountsApi, CodeType, googleNewData } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { auditBooks } from '../../api/services/ledger'
import { seedUser, startFakeGoogle, startTestApi, type FakeGoogle, type TestApi } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, ops, sold, upload } from '../support/selling'
import { admin, adjust, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * POST /v1/user/delAccount and GET /v1/user/delAccountInfo against the real api (SQLite, or
 * PostgreSQL with TEST_DB=postgres): each refusal changes nothing; a deletion erases the person
 * and keeps the books under a user id that leads to no one.
 */
let google: FakeGoogle
let api: TestApi
const uploadDir = mkdtempSync(join(tmpdir(), 'cardlane-deletion-'))

beforeAll(async () => {
  google = await startFakeGoogle()
  api = await startTestApi({
    config: {
      googleJwksUrl: google.jwksUrl,
      selling: {
        codesKey: 'test-codes-key-0123456789abcdef-0123456789',
        storage: { driver: 'disk', dir: uploadDir },
        uploadsPerDay: 500,
        offerAnswerMs: 48 * 3_600_000,
      },
    },
  })
})
afterAll(async () => {
  await api?.close()
  await google?.close()
  rmSync(uploadDir, { recursive: true, force: true })
})

const PASSWORD = 'violet tangerine harbour'
const del = (token: string, body: unknown) => api.post('/v1/user/delAccount', body, { token })
const info = async (token: string) => accountsApi.delAccountInfo.data.parse((await api.get('/v1/user/delAccountInfo', { token })).body.data)

let passwordHash: string
beforeAll(async () => {
  // One real hash of PASSWORD, given to every person() (hashing is slow on purpose).
  passwordHash = (await seedUser(api, { email: newEmail('hash'), password: PASSWORD })).user.password_hash!
})

/** A person with a password, a PIN and a bank card (and a balance if asked), made through the api. */
async function person(options: { balance?: number } = {}): Promise<WalletUser> {
  const u = await walletUser(api, options)
  await api.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', u.userId).execute()
  return u
}

/** Everything a refusal must leave as it was. */
async function snapshot(userId: string) {
  const { db } = api
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  return {
    user,
    sessions: await db
      .selectFrom('sessions')
      .select(['token_hash', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('token_hash')
      .execute(),
    cards: await db.selectFrom('bank_cards').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    pin: await db.selectFrom('withdrawal_pins').select(['pin_hash']).where('user_id', '=', userId).execute(),
    notifications: await db.selectFrom('notifications').select(['id']).where('user_id', '=', userId).orderBy('id').execute(),
    codes: await db.selectFrom('email_codes').select(['id', 'type', 'used_at']).where('email', '=', user.email).orderBy('id').execute(),
    wallet: await db.selectFrom('wallets').selectAll().where('user_id', '=', userId).execute(),
    log: await db.selectFrom('balance_logs').select(['id']).where('user_id', '=', userId).orderBy('id').execute(),
    orders: await db.selectFrom('orders').select(['id', 'status', 'user_id']).where('user_id', '=', userId).orderBy('id').execute(),
    withdrawals: await db
      .selectFrom('withdrawals')
      .select(['id', 'status', 'user_id'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
    audit: await db.selectFrom('audit_log').select(['id']).where('target_id', '=', userId).where('action', '=', 'account.delete').execute(),
  }
}

async function expectRefused(u: { userId: string; token: string }, body: unknown, refusal: { code: number; msg?: string }) {
  const before = await snapshot(u.userId)
  const res = await del(u.token, body)
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ code: refusal.code, data: null, ...(refusal.msg && { msg: refusal.msg }) })
  expect(await snapshot(u.userId)).toEqual(before)
  expect((await api.get('/v1/user/index', { token: u.token })).status).toBe(200)
  return res.body.msg
}

describe('what stands in the way is said before the form, and delAccount refuses it changing nothing', () => {
  it('a new account: confirmed with its password, nothing open', async () => {
    const u = await person()
    expect(await info(u.token)).toEqual({
      confirmWith: 'password',
      balance: 0,
      frozen: 0,
      currency: 'NGN',
      openOrders: 0,
      openWithdrawals: 0,
      blocker: null,
    })
    const { token } = await seedUser(api, { email: newEmail('google-only'), password: null, googleSub: `g-${randomUUID()}` })
    expect((await info(token)).confirmWith).toBe('code')
  })

  it('money in the wallet: the amount is named', async () => {
    const u = await person({ balance: 1_250_000 })
    const msg = 'Withdraw your ₦12,500.00 balance first, then delete your account'
    expect((await info(u.token)).blocker).toEqual({ code: Refusals.DELETE_BALANCE_LEFT.code, msg })
    await expectRefused(u, { password: PASSWORD }, { code: Refusals.DELETE_BALANCE_LEFT.code, msg })
  })

  it('less than the smallest withdrawal: says it cannot be withdrawn and where to turn', async () => {
    const u = await person({ balance: 50_000 })
    const msg =
      'Your ₦500.00 balance is less than the smallest withdrawal (₦1,000.00), so it cannot be withdrawn. Contact support to close your account'
    expect((await info(u.token)).blocker?.msg).toBe(msg)
    await expectRefused(u, { password: PASSWORD }, { code: Refusals.DELETE_BALANCE_TOO_SMALL.code, msg })
  })

  it('money on hold for a withdrawal on its way', async () => {
    const u = await person({ balance: 1_000_000 })
    expect((await withdraw(api, u, 1_000_000)).body.code).toBe(Code.OK)
    const msg = '₦10,000.00 is on hold for a withdrawal. Wait until it reaches your bank, then delete your account'
    expect(await info(u.token)).toMatchObject({ balance: 0, frozen: 1_000_000, openWithdrawals: 1, blocker: { msg } })
    await expectRefused(u, { password: PASSWORD }, { code: Refusals.DELETE_MONEY_ON_HOLD.code, msg })
  })

  it('a withdrawal still open without a hold (a repair by hand): refused all the same', async () => {
    const u = await person({ balance: 1_000_000 })
    const w = (await withdraw(api, u, 1_000_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-9' })
    await api.db.updateTable('withdrawals').set({ status: 'processing' }).where('id', '=', w.id).execute()
    expect((await info(u.token)).blocker).toEqual(Refusals.DELETE_WITHDRAWALS_OPEN)
    await expectRefused(u, { password: PASSWORD }, Refusals.DELETE_WITHDRAWALS_OPEN)
  })

  it('orders in the queue, in review or waiting for an answer', async () => {
    const u = await person()
    const first = await sold(api, u.token)
    expect((await info(u.token)).blocker).toEqual(Refusals.DELETE_ORDERS_OPEN)
    await expectRefused(u, { password: PASSWORD }, Refusals.DELETE_ORDERS_OPEN)
    await ops(api).claim(first.id)
    await sold(api, u.token)
    expect(await info(u.token)).toMatchObject({ openOrders: 2 })
    // An offer waiting for the person's answer is open too: accepting it would pay the wallet.
    const offer = await ops(api).propose(first.id, 'Lower', [{ cardId: first.cards[0].cardId, payout: 100, reasonCode: 'OTHER' }])
    expect(offer.body.data.status).toBe('proposed')
    const msg = 'You have 2 open orders. Wait until they are finished, then delete your account'
    expect(await info(u.token)).toMatchObject({ openOrders: 2, blocker: { code: Refusals.DELETE_ORDERS_OPEN.code, msg } })
    await expectRefused(u, { password: PASSWORD }, { code: Refusals.DELETE_ORDERS_OPEN.code, msg })
  })

  it('a wrong password; a code for an account with a password; a password for one without', async () => {
    const u = await person()
    await expectRefused(u, { password: 'not my password' }, Refusals.DELETE_WRONG_PASSWORD)
    await expectRefused(u, { verifyCode: '123456' }, Refusals.DELETE_USE_PASSWORD)
    const email = newEmail('google-only')
    const g = await seedUser(api, { email, password: null, googleSub: `g-${randomUUID()}` })
    await expectRefused({ userId: g.user.id, token: g.token }, { password: PASSWORD }, Refusals.DELETE_USE_CODE)
    expect(api.logs.join('\n')).not.toContain('not my password')
  })

  it('a wrong code, and a code of another type, are the usual code refusal', async () => {
    const email = newEmail('code')
    const g = await seedUser(api, { email, password: null, googleSub: `g-${randomUUID()}` })
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PIN }, { token: g.token })).body.code).toBe(Code.OK)
    const pinCode = api.lastCode(email, CodeType.RESET_PIN)
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.DELETE_ACCOUNT }, { token: g.token })).body.code).toBe(Code.OK)
    const code = api.lastCode(email, CodeType.DELETE_ACCOUNT)
    const wrong = code === '000000' ? '000001' : '000000'
    for (const verifyCode of [wrong, pinCode === code ? wrong : pinCode]) {
      const res = await del(g.token, { verifyCode })
      expect(res.body).toEqual({ ...Refusals.BAD_VERIFY_CODE, data: null })
    }
    const after = await snapshot(g.user.id)
    expect(after.user).toMatchObject({ email, user_name: g.user.user_name })
    expect(after.sessions.every((s) => s.revoked_at === null)).toBe(true)
  })

  it('wrong passwords count with failed sign-ins of the address: past the limit both answer 429', async () => {
    const limited = await startTestApi({ config: { loginFailLimit: 2 } })
    try {
      const email = newEmail('limit')
      const { token } = await seedUser(limited, { email, password: PASSWORD })
      for (let i = 0; i < 2; i++) {
        expect((await limited.post('/v1/user/delAccount', { password: `wrong ${i}` }, { token })).body.code).toBe(
          Refusals.DELETE_WRONG_PASSWORD.code,
        )
      }
      const blocked = await limited.post('/v1/user/delAccount', { password: PASSWORD }, { token })
      expect(blocked.status).toBe(429)
      expect((await limited.post('/auth/login', { email, password: PASSWORD })).status).toBe(429)
      expect((await limited.get('/v1/user/index', { token })).status).toBe(200)
      // A quarter of an hour later the window has passed, and the right password deletes.
      limited.clock.advance(15 * 60_000 + 1)
      expect((await limited.post('/v1/user/delAccount', { password: PASSWORD }, { token })).body.code).toBe(Code.OK)
    } finally {
      await limited.close()
    }
  })
})

describe('a deletion', () => {
  it('erases the person, keeps the books anonymised, revokes every token, and frees the address', async () => {
    const u = await person({ balance: 2_000_000 })
    const { userId, email, token } = u
    // A full history: a paid withdrawal, a cancelled order, notifications, a second session, a photo
    // never submitted, a photo on an order, a pending sign-in code, an analytics event.
    const w = (await withdraw(api, u, 2_000_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-1' })
    const loose = await upload(api, { token }, await jpeg())
    const kept = await upload(api, { token }, await jpeg())
    const order = await sold(api, token, { cardType: 'physical', cards: [{ faceValue: 10_000, imageIds: [kept.body.data.fileId] }] })
    expect((await api.post('/v1/order/cancel', { id: order.id }, { token })).body.code).toBe(Code.OK)
    const other = (await api.post<string>('/auth/login', { email, password: PASSWORD })).body.data
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN })).body.code).toBe(Code.OK)
    await api.db
      .insertInto('analytics_events')
      .values({
        id: randomUUID(),
        name: 'login',
        user_id: userId,
        once_key: null,
        context_json: JSON.stringify({ userEmail: email, userAgent: 'Phone' }),
        occurred_at: 1,
        created_at: 1,
      })
      .execute()
    const before = await snapshot(userId)
    expect(before.notifications.length).toBeGreaterThan(0)
    expect(before.codes.length).toBe(1)
    const looseKey = (
      await api.db.selectFrom('uploads').select('storage_key').where('id', '=', loose.body.data.fileId).executeTakeFirstOrThrow()
    ).storage_key
    expect(existsSync(join(uploadDir, looseKey))).toBe(true)

    const res = await del(token, { password: PASSWORD })
    expect(res.body).toEqual({ code: 200, msg: 'success', data: null })
    expect(accountsApi.delAccount.data.parse(res.body.data)).toBeNull()

    const after = await snapshot(userId)
    expect(after.user).toMatchObject({
      email: `deleted:${userId}`,
      user_name: 'Deleted user',
      head_img: null,
      password_hash: null,
      google_sub: null,
    })
    expect(after.sessions).toHaveLength(2)
    expect(after.sessions.every((s) => s.revoked_at !== null)).toBe(true)
    expect(after.cards).toHaveLength(1)
    expect(after.cards[0]).toMatchObject({ account_number: '', account_name: '', bank_code: '058' })
    expect(after.cards[0].deleted_at).not.toBeNull()
    expect(after.pin).toEqual([])
    expect(after.notifications).toEqual([])
    expect(await api.db.selectFrom('email_codes').select('id').where('email', '=', email).execute()).toEqual([])
    // The books: every entry, the wallet, the withdrawal and the order, under the same id.
    expect(after.log).toEqual(before.log)
    expect(after.wallet).toEqual(before.wallet)
    expect(after.withdrawals).toEqual(before.withdrawals)
    expect(after.orders).toEqual(before.orders)
    expect(await auditBooks(api.db)).toEqual([])
    // Photos: the loose one is gone (row and file), the one on the order stays with the order.
    expect(await api.db.selectFrom('uploads').select('id').where('id', '=', loose.body.data.fileId).execute()).toEqual([])
    expect(existsSync(join(uploadDir, looseKey))).toBe(false)
    expect(await api.db.selectFrom('uploads').select('id').where('id', '=', kept.body.data.fileId).execute()).toHaveLength(1)
    const event = await api.db.selectFrom('analytics_events').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
    expect(event).toMatchObject({ name: 'login', context_json: null })
    // One audit entry, and nothing in it that was erased.
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', userId)
      .where('action', '=', 'account.delete')
      .execute()
    expect(audit).toHaveLength(1)
    expect(JSON.stringify(audit)).not.toContain(email)
    // Nothing personal is left anywhere on the row or the cards.
    expect(JSON.stringify([after.user, after.cards])).not.toMatch(/@|Ada Obi/)

    // Every token answers 401; no way back in.
    for (const t of [token, other]) expect((await api.get('/v1/user/index', { token: t })).status).toBe(401)
    expect((await del(token, { password: PASSWORD })).status).toBe(401)
    expect((await api.post('/auth/login', { email, password: PASSWORD })).body).toMatchObject(Refusals.BAD_CREDENTIALS)
    api.clock.advance(61_000) // past the once-a-minute rule for codes
    const mails = api.mails.length
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN })).body.code).toBe(Code.OK)
    expect(api.mails.length).toBe(mails) // no account at the address: no sign-in code is mailed

    // The address registers again, as a new person with nothing of the old one.
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.REGISTER })).body.code).toBe(Code.OK)
    const reg = await api.post<string>('/auth/register', { email, password: PASSWORD, verifyCode: api.lastCode(email, CodeType.REGISTER) })
    expect(reg.body.code).toBe(Code.OK)
    const fresh = (await api.get<{ userInfo: { userId: string; email: string } }>('/v1/user/index', { token: reg.body.data })).body.data
    expect(fresh.userInfo.email).toBe(email)
    expect(fresh.userInfo.userId).not.toBe(userId)
    expect(await info(reg.body.data)).toMatchObject({ balance: 0, openOrders: 0, blocker: null })
    expect(api.logs.join('\n')).not.toContain(PASSWORD)
  })

  it('by e-mail code for a Google-only account; Google then makes a new account, never the old one', async () => {
    const email = newEmail('gonly')
    const sub = `g-${randomUUID()}`
    const first = googleNewData.parse(
      (await api.post('/auth/googleNew', { id_token: await google.idToken({ sub, email }, { now: api.clock.now() }) })).body.data,
    )
    const { token } = first
    const userId = (await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token })).body.data.userInfo.userId
    expect((await info(token)).confirmWith).toBe('code')
    // The code goes to the person's own address, whatever address the body names.
    expect(
      (await api.post('/auth/sendEmailCode', { email: 'someone.else@example.com', type: CodeType.DELETE_ACCOUNT }, { token })).body.code,
    ).toBe(Code.OK)
    const code = api.lastCode(email, CodeType.DELETE_ACCOUNT)
    expect((await del(token, { verifyCode: code })).body.code).toBe(Code.OK)
    expect(await snapshot(userId)).toMatchObject({ user: { email: `deleted:${userId}`, google_sub: null }, pin: [], notifications: [] })
    expect((await api.get('/v1/user/index', { token })).status).toBe(401)

    const again = googleNewData.parse(
      (await api.post('/auth/googleNew', { id_token: await google.idToken({ sub, email }, { now: api.clock.now() }) })).body.data,
    )
    expect(again.isNew).toBe(true)
    const who = (await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token: again.token })).body.data.userInfo
    expect(who.userId).not.toBe(userId)
  })

  it('the same code sent twice at once deletes once', async () => {
    const email = newEmail('once')
    const g = await seedUser(api, { email, password: null, googleSub: `g-${randomUUID()}` })
    await api.post('/auth/sendEmailCode', { email, type: CodeType.DELETE_ACCOUNT }, { token: g.token })
    const code = api.lastCode(email, CodeType.DELETE_ACCOUNT)
    const [a, b] = await Promise.all([del(g.token, { verifyCode: code }), del(g.token, { verifyCode: code })])
    // One deletes; the twin finds the code used (or the token revoked): never two deletions.
    const codes = [a, b].map((r) => r.body.code).sort()
    expect(codes[0]).toBe(Code.OK)
    expect([Refusals.BAD_VERIFY_CODE.code, 401]).toContain(codes[1])
    expect(await api.db.selectFrom('audit_log').select('id').where('target_id', '=', g.user.id).execute()).toHaveLength(1)
  })

  it('two deletions with the password at once: one deletes, the other is signed out, one audit entry', async () => {
    const u = await person()
    const [a, b] = await Promise.all([del(u.token, { password: PASSWORD }), del(u.token, { password: PASSWORD })])
    expect([a.status, b.status].sort()).toEqual([200, 401])
    expect(await api.db.selectFrom('audit_log').select('id').where('target_id', '=', u.userId).execute()).toHaveLength(1)
  })

  it('an order finished and the money withdrawn: the account goes', async () => {
    const u = await person()
    const order = await sold(api, u.token)
    await ops(api).claim(order.id)
    await ops(api).complete(order.id)
    const { balance } = await info(u.token)
    expect(balance).toBeGreaterThan(0)
    expect((await del(u.token, { password: PASSWORD })).body.code).toBe(Refusals.DELETE_BALANCE_LEFT.code)
    await adjust(api, u.userId, -balance, 'paid out by hand')
    expect((await del(u.token, { password: PASSWORD })).body.code).toBe(Code.OK)
    expect((await snapshot(u.userId)).orders).toEqual([expect.objectContaining({ id: order.id, status: 'completed', user_id: u.userId })])
  })
})

describe('bad input answers 400 naming the problem, and changes nothing', () => {
  it.each([
    [{}, 'body: Confirm with your password or the e-mailed verification code'],
    [{ password: PASSWORD, verifyCode: '123456' }, 'body: Send your password or the verification code, not both'],
    [{ password: '' }, 'password: Password is required'],
    [{ password: 12345678 }, 'password: Password must be text'],
    [{ password: 'x'.repeat(129) }, 'password: Password must be at most 128 characters'],
    [{ verifyCode: '12' }, 'verifyCode: Verification code is the 6 digits we e-mailed you'],
    [{ verifyCode: null }, 'verifyCode: Verification code must be text'],
    [{ password: PASSWORD, userId: 'someone-else' }, 'userId: Unknown field'],
    [[], 'body: Expected object, received array'],
  ])('%j', async (body, message) => {
    const u = await person()
    const before = await snapshot(u.userId)
    const res = await del(u.token, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 400, msg: message, data: null })
    expect(await snapshot(u.userId)).toEqual(before)
  })

  it('not JSON, and no token', async () => {
    const u = await person()
    const raw = await api.post('/v1/user/delAccount', undefined, {
      token: u.token,
      raw: `password=${PASSWORD}`,
      headers: { 'content-type': 'text/plain' },
    })
    expect(raw.status).toBe(400)
    expect((await del('', { password: PASSWORD })).status).toBe(401)
    expect((await api.post('/v1/user/delAccount', { password: PASSWORD })).status).toBe(401)
    expect((await api.get('/v1/user/delAccountInfo')).status).toBe(401)
    expect((await api.get('/v1/user/index', { token: u.token })).status).toBe(200)
  })
})
