import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import type { BankCard } from '#contract/bank-cards'
import { Refusals } from '#contract/refusals'
import type { BalanceLogEntry, WalletOverview } from '#contract/wallet'
import type { Withdrawal } from '#contract/withdrawals'
import { auditBooks } from '../../api/services/ledger'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { TEST_STAFF_ACTOR } from '../support/staff'
import { admin, adjust, PIN, requestId, validNuban, walletInfo, walletUser, withdraw } from '../support/wallet'

/** The wallet through HTTP against the real api: PIN, bank cards, withdrawals, operators, the books. */
const api = useTestApi({ web: false })
const HOUR = 3_600_000

describe('the wallet of a new person', () => {
  it('is empty, in the payout currency, with the withdrawal limits shown up front', async () => {
    const { token } = await seedUser(api, { email: newEmail() })
    const info = await walletInfo(api, token)
    expect(info).toMatchObject({ balance: 0, frozen: 0, currency: 'NGN', hasPin: false, bankCardCount: 0 })
    expect(info.limits).toMatchObject({
      min: 100_000,
      dailyMax: 50_000_000,
      remainingToday: 50_000_000,
      fee: 5_000,
      payoutHours: 24,
      timeZone: 'Africa/Lagos',
    })
    expect(info.limits.dayEndsAt).toBeGreaterThan(api.clock.now())
    expect(info.pin).toEqual({ hasPin: false, lockedUntil: null, triesLeft: 5, withdrawBlockedUntil: null })
  })

  it('needs a token', async () => {
    expect((await api.get('/v1/wallet/info')).status).toBe(401)
    expect((await api.get('/v1/user/pageBalanceLog')).status).toBe(401)
  })
})

describe('the withdrawal PIN', () => {
  it.each(['000000', '111111', '123456', '234567', '987654', '12345', '1234567', 'abcdef', ''])('refuses %j as a new PIN', async (pin) => {
    const { token } = await seedUser(api, { email: newEmail() })
    const res = await api.post('/v1/user/setPin', { pin }, { token })
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/^pin: /)
    expect((await walletInfo(api, token)).hasPin).toBe(false)
  })

  it('is set once, then changed only with the old PIN; a wrong old PIN says how many tries are left', async () => {
    const { token } = await seedUser(api, { email: newEmail() })
    expect((await api.post('/v1/user/setPin', { pin: PIN }, { token })).body.code).toBe(200)
    expect((await api.post('/v1/user/setPin', { pin: '739251' }, { token })).body.code).toBe(Refusals.PIN_ALREADY_SET.code)
    const wrong = await api.post('/v1/user/setPin', { oldPin: '111112', pin: '739251' }, { token })
    expect(wrong.body.code).toBe(Refusals.PIN_WRONG.code)
    expect(wrong.body.msg).toBe('Wrong PIN. 4 tries left before PIN actions are locked for 30 minutes')
    expect((await walletInfo(api, token)).pin.triesLeft).toBe(4)
    expect((await api.post('/v1/user/setPin', { oldPin: PIN, pin: '739251' }, { token })).body.code).toBe(200)
    // The right PIN forgave the wrong one; the new PIN is the one that works now.
    expect((await walletInfo(api, token)).pin.triesLeft).toBe(5)
    expect((await api.post('/v1/user/setPin', { oldPin: PIN, pin: '846201' }, { token })).body.code).toBe(Refusals.PIN_WRONG.code)
    expect((await api.post('/v1/user/setPin', { oldPin: '739251', pin: '739251' }, { token })).status).toBe(400)
  })

  it('five wrong PINs lock PIN actions for 30 minutes, whatever the action; the lock then ends', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    for (let i = 0; i < 4; i++) expect((await withdraw(api, u, 200_000, { pin: '999998' })).body.code).toBe(Refusals.PIN_WRONG.code)
    const fifth = await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: '999998' }, { token: u.token })
    expect(fifth.body.code).toBe(Refusals.PIN_LOCKED.code)
    expect(fifth.body.msg).toMatch(/^Too many wrong PINs\. PIN actions are locked until \d\d:\d\d$/)
    const info = await walletInfo(api, u.token)
    expect(info.pin.lockedUntil).toBe(api.clock.now() + 30 * 60_000)
    expect(info.pin.triesLeft).toBe(0)
    // Even the right PIN waits, and nothing moved.
    expect((await withdraw(api, u, 200_000)).body.code).toBe(Refusals.PIN_LOCKED.code)
    expect((await api.post('/v1/user/setPin', { oldPin: PIN, pin: '739251' }, { token: u.token })).body.code).toBe(Refusals.PIN_LOCKED.code)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0, bankCardCount: 1 })
    api.clock.advance(30 * 60_000 + 1)
    expect((await withdraw(api, u, 200_000)).body.code).toBe(200)
  })

  it('parallel wrong guesses cannot slip past the fifth: one check at a time', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => withdraw(api, u, 200_000, { pin: String(100_000 + i * 7919).padStart(6, '0') })),
    )
    const codes = guesses.map((g) => g.body.code)
    expect(codes.filter((c) => c === Refusals.PIN_WRONG.code)).toHaveLength(4)
    expect(codes.filter((c) => c === Refusals.PIN_LOCKED.code)).toHaveLength(16)
  })

  it('is reset with an e-mail code sent to the signed-in person; withdrawals then wait 24 hours', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    // The body's address is ignored for type 4: the code goes to the person's own address.
    expect(
      (await api.post('/auth/sendEmailCode', { email: 'someone.else@example.com', type: CodeType.RESET_PIN }, { token: u.token })).body
        .code,
    ).toBe(200)
    const verifyCode = api.lastCode(u.email, CodeType.RESET_PIN)
    expect(() => api.lastCode('someone.else@example.com')).toThrow()
    expect((await api.post('/v1/user/resetPin', { verifyCode: '000000', pin: '739251' }, { token: u.token })).body.code).toBe(
      Refusals.BAD_VERIFY_CODE.code,
    )
    expect((await api.post('/v1/user/resetPin', { verifyCode, pin: '739251' }, { token: u.token })).body.code).toBe(200)
    const info = await walletInfo(api, u.token)
    expect(info.pin.withdrawBlockedUntil).toBe(api.clock.now() + 24 * HOUR)
    const blocked = await withdraw(api, u, 200_000, { pin: '739251' })
    expect(blocked.body.code).toBe(Refusals.PIN_RECENTLY_RESET.code)
    expect(blocked.body.msg).toMatch(/withdrawals open again on/)
    api.clock.advance(24 * HOUR + 1)
    expect((await withdraw(api, u, 200_000, { pin: '739251' })).body.code).toBe(200)
    // The code was single use.
    expect((await api.post('/v1/user/resetPin', { verifyCode, pin: '846201' }, { token: u.token })).body.code).toBe(
      Refusals.BAD_VERIFY_CODE.code,
    )
  })

  it('type 4 codes need a signed-in person', async () => {
    const res = await api.post('/auth/sendEmailCode', { email: 'x@example.com', type: CodeType.RESET_PIN })
    expect(res.status).toBe(401)
  })
})

describe('bank cards', () => {
  it('lists the Nigerian banks with Paystack’s codes (the CBN code for deposit-money banks)', async () => {
    const banks = (await api.get<{ code: string; name: string }[]>('/v1/bank/list')).body.data
    expect(banks.length).toBeGreaterThanOrEqual(20)
    expect(banks).toContainEqual({ code: '058', name: 'Guaranty Trust Bank', nuban: 'dmb' })
    expect(banks).toContainEqual({ code: '057', name: 'Zenith Bank', nuban: 'dmb' })
  })

  it('adds an account with a valid NUBAN, masked, the first one default; refuses bad ones', async () => {
    const u = await walletUser(api, { card: false })
    const add = (body: Record<string, unknown>) =>
      api.post<BankCard>('/v1/bankCard/add', { bankCode: '058', accountName: 'Ada Obi', pin: PIN, ...body }, { token: u.token })
    const number = validNuban('058')
    const wrongDigit = number.slice(0, 9) + ((Number(number[9]) + 1) % 10)
    const bad = await add({ accountNumber: wrongDigit })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe('accountNumber: This account number does not exist at this bank. Check the digits')
    expect((await add({ accountNumber: '12345' })).status).toBe(400)
    expect((await add({ bankCode: '999', accountNumber: validNuban('999') })).body.code).toBe(Refusals.UNKNOWN_BANK.code)
    expect((await add({ accountNumber: number, pin: '999998' })).body.code).toBe(Refusals.PIN_WRONG.code)
    const ok = await add({ accountNumber: number.replace(/(\d{3})/, '$1 ') })
    expect(ok.body.code).toBe(200)
    expect(ok.body.data).toMatchObject({
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountName: 'Ada Obi',
      maskedNumber: `•••• ${number.slice(-4)}`,
      isDefault: true,
    })
    expect(ok.text).not.toContain(number)
    expect((await add({ accountNumber: number })).body.code).toBe(Refusals.BANK_CARD_DUPLICATE.code)
    for (let i = 0; i < 4; i++) expect((await add({ accountNumber: validNuban('058') })).body.code).toBe(200)
    expect((await add({ accountNumber: validNuban('058') })).body.code).toBe(Refusals.BANK_CARD_LIMIT.code)
    const list = (await api.get<BankCard[]>('/v1/bankCard/list', { token: u.token })).body.data
    expect(list).toHaveLength(5)
    expect(list.filter((c) => c.isDefault)).toHaveLength(1)
  })

  it('deletes with the PIN; the default passes on; another person cannot touch my cards', async () => {
    const u = await walletUser(api)
    const other = await walletUser(api)
    const second = (
      await api.post<BankCard>(
        '/v1/bankCard/add',
        { bankCode: '044', accountNumber: validNuban('044'), accountName: 'Ada Obi', pin: PIN },
        { token: u.token },
      )
    ).body.data
    expect((await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: PIN }, { token: other.token })).body.code).toBe(
      Refusals.BANK_CARD_NOT_FOUND.code,
    )
    expect((await api.post('/v1/bankCard/setDefault', { id: u.card!.id }, { token: other.token })).body.code).toBe(
      Refusals.BANK_CARD_NOT_FOUND.code,
    )
    expect((await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: '999998' }, { token: u.token })).body.code).toBe(
      Refusals.PIN_WRONG.code,
    )
    expect((await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: PIN }, { token: u.token })).body.code).toBe(200)
    const list = (await api.get<BankCard[]>('/v1/bankCard/list', { token: u.token })).body.data
    expect(list).toEqual([{ ...second, isDefault: true }])
    expect((await api.post('/v1/bankCard/delete', { id: u.card!.id, pin: PIN }, { token: u.token })).body.code).toBe(
      Refusals.BANK_CARD_NOT_FOUND.code,
    )
  })

  it('needs a PIN first', async () => {
    const u = await walletUser(api, { pin: null })
    const res = await api.post(
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber: validNuban('058'), accountName: 'Ada Obi', pin: PIN },
      { token: u.token },
    )
    expect(res.body.code).toBe(Refusals.PIN_NOT_SET.code)
  })
})

describe('withdrawals', () => {
  it('hold the amount at once, and say when it arrives', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const res = await withdraw(api, u, 300_000)
    expect(res.body.code).toBe(200)
    const w = res.body.data
    expect(w).toMatchObject({
      status: 'pending',
      amount: 300_000,
      fee: 5_000,
      received: 295_000,
      currency: 'NGN',
      reference: null,
      reason: null,
    })
    expect(w.expectedBy).toBe(api.clock.now() + 24 * HOUR)
    expect(w.bankCard).toMatchObject({ id: u.card!.id, bankName: 'Guaranty Trust Bank', maskedNumber: u.card!.maskedNumber })
    expect(w.events.map((e) => e.status)).toEqual(['pending'])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 700_000, frozen: 300_000 })
    const log = (await api.get<{ list: BalanceLogEntry[] }>('/v1/user/pageBalanceLog?pageSize=10', { token: u.token })).body.data.list
    expect(log[0]).toMatchObject({
      type: 'withdraw',
      amount: -300_000,
      balanceAfter: 700_000,
      frozenChange: 300_000,
      frozenAfter: 300_000,
      refType: 'withdrawal',
      refId: w.id,
    })
    expect(log[1]).toMatchObject({ type: 'adjustment', amount: 1_000_000, balanceAfter: 1_000_000 })
    expect((await api.get<Withdrawal>(`/v1/withdraw/detail?id=${w.id}`, { token: u.token })).body.data).toEqual(w)
    expect((await walletInfo(api, u.token)).limits.remainingToday).toBe(50_000_000 - 300_000)
  })

  it('refuse, moving nothing: too low a balance, under the minimum, not above the fee, over today’s maximum, another person’s card', async () => {
    const u = await walletUser(api, { balance: 60_000_000 })
    const other = await walletUser(api)
    const low = await walletUser(api, { balance: 150_000 })
    expect((await withdraw(api, low, 200_000)).body.code).toBe(Refusals.INSUFFICIENT_BALANCE.code)
    const under = await withdraw(api, u, 99_999)
    expect(under.body).toMatchObject({ code: Refusals.BELOW_MINIMUM.code, msg: 'The smallest withdrawal is ₦1,000.00' })
    expect((await withdraw(api, u, 200_000, { bankCardId: other.card!.id })).body.code).toBe(Refusals.BANK_CARD_NOT_FOUND.code)
    expect((await withdraw(api, u, 40_000_000)).body.code).toBe(200)
    const over = await withdraw(api, u, 10_000_001)
    expect(over.body).toMatchObject({ code: Refusals.OVER_DAILY_MAX.code, msg: 'You can withdraw up to ₦100,000.00 more today' })
    expect((await withdraw(api, u, 10_000_000)).body.code).toBe(200)
    expect((await withdraw(api, u, 100_000)).body.msg).toBe('You have reached today’s withdrawal maximum. Try again tomorrow')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 10_000_000, frozen: 50_000_000 })
    expect(await walletInfo(api, low.token)).toMatchObject({ balance: 150_000, frozen: 0 })
    // Tomorrow (Lagos time) the maximum starts again.
    api.clock.advance(24 * HOUR)
    expect((await withdraw(api, u, 100_000)).body.code).toBe(200)
  })

  it.each([
    [{ amount: 0 }, 'amount: Amount must be more than zero'],
    [{ amount: -5 }, 'amount: Amount cannot be negative'],
    [{ amount: 1.5 }, 'amount: Amount must be a whole number of minor units'],
    [{ amount: '100000' }, 'amount: Amount must be a whole number of minor units'],
    [{ pin: '12345' }, 'pin: PIN is 6 digits'],
    [{ requestId: 'x' }, 'requestId: requestId must be 8–64 letters, digits, - or _'],
  ])('bad input %j is a 400 naming the field', async (patch, message) => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const res = await api.post(
      '/v1/withdraw/create',
      { bankCardId: u.card!.id, amount: 200_000, pin: PIN, requestId: requestId(), ...patch },
      { token: u.token },
    )
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(message)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
  })

  it('one requestId is one withdrawal; the same key with another amount is refused', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const key = requestId()
    const first = await withdraw(api, u, 200_000, { requestId: key })
    const again = await withdraw(api, u, 200_000, { requestId: key })
    expect(again.body.data.id).toBe(first.body.data.id)
    expect((await withdraw(api, u, 300_000, { requestId: key })).body.code).toBe(Refusals.IDEMPOTENCY_KEY_REUSED.code)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 800_000, frozen: 200_000 })
  })

  it('are private: another person’s withdrawal is not found', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const other = await walletUser(api)
    const w = (await withdraw(api, u, 200_000)).body.data
    expect((await api.get(`/v1/withdraw/detail?id=${w.id}`, { token: other.token })).body.code).toBe(Refusals.WITHDRAWAL_NOT_FOUND.code)
    expect((await api.get<{ total: number }>('/v1/withdraw/page', { token: other.token })).body.data.total).toBe(0)
    expect((await api.get<{ total: number }>('/v1/withdraw/page', { token: u.token })).body.data.total).toBe(1)
  })
})

describe('operators', () => {
  it('are refused without a staff session (401): a wrong bearer, or none', async () => {
    const res = await api.post(
      '/admin/wallet/adjust',
      { userId: 'x', amount: 1, reason: 'nope', requestId: requestId() },
      { headers: { authorization: 'Bearer wrong' } },
    )
    expect(res.status).toBe(401)
    expect((await api.get('/admin/withdraw/page')).status).toBe(401)
  })

  it('the payout desk pages oldest first: page 2 goes on where page 1 stopped; a bad page is a 400 in words', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    for (let i = 0; i < 4; i++) {
      expect((await withdraw(api, u, 100_000)).body.code).toBe(200)
      api.clock.advance(1_000)
    }
    type Listed = { list: { id: string }[]; total: number; pageNum: number }
    const all = (await admin(api).get<Listed>('/admin/withdraw/page?status=pending&pageSize=50')).body.data
    const one = (await admin(api).get<Listed>('/admin/withdraw/page?status=pending&pageSize=2')).body.data
    const two = (await admin(api).get<Listed>('/admin/withdraw/page?status=pending&pageSize=2&pageNum=2')).body.data
    expect(one).toMatchObject({ total: all.total, pageNum: 1 })
    expect([...one.list, ...two.list].map((w) => w.id)).toEqual(all.list.slice(0, 4).map((w) => w.id))
    const bad = await admin(api).get('/admin/withdraw/page?status=pending&pageNum=next')
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toBe('pageNum: a whole page number from 1 to 100000')
  })

  it('pay a withdrawal: processing, then success with the reference; the hold leaves; the person is told', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 400_000)).body.data
    // The desk lists oldest first and this file's other tests leave withdrawals waiting: look on every page.
    const listed: { id: string; email: string }[] = []
    for (let pageNum = 1; ; pageNum++) {
      type Page = { list: { id: string; email: string }[]; total: number }
      const page = (await admin(api).get<Page>(`/admin/withdraw/page?status=pending&pageSize=50&pageNum=${pageNum}`)).body.data
      listed.push(...page.list)
      if (page.list.length === 0 || listed.length >= page.total) break
    }
    expect(listed.find((q) => q.id === w.id)).toMatchObject({ email: u.email })
    expect((await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'success' })).status).toBe(400) // no reference
    expect((await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })).body.code).toBe(200)
    const paid = await admin(api).post<Withdrawal>('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-000123' })
    expect(paid.body.data).toMatchObject({ status: 'success', reference: 'NIP-000123' })
    expect(paid.body.data.events.map((e) => e.status)).toEqual(['pending', 'processing', 'success'])
    // Repeating the move changes nothing; a finished withdrawal never moves again.
    expect(
      (await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-other' })).body.data,
    ).toMatchObject({ reference: 'NIP-000123' })
    expect((await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'late' })).body.code).toBe(
      Refusals.WITHDRAWAL_BAD_MOVE.code,
    )
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 600_000, frozen: 0 })
    const log = (await api.get<{ list: BalanceLogEntry[] }>('/v1/user/pageBalanceLog', { token: u.token })).body.data.list
    expect(log[0]).toMatchObject({ type: 'withdraw_paid', amount: 0, frozenChange: -400_000, balanceAfter: 600_000, frozenAfter: 0 })
    // Both moves can fall in one millisecond, which PostgreSQL returns in any order: by action.
    const audit = (await api.db.selectFrom('audit_log').selectAll().where('target_id', '=', w.id).execute()).sort((a, b) =>
      a.action.localeCompare(b.action),
    )
    expect(audit.map((a) => [a.actor, a.action])).toEqual([
      [TEST_STAFF_ACTOR, 'withdrawal.processing'],
      [TEST_STAFF_ACTOR, 'withdrawal.success'],
    ])
    expect(JSON.parse(audit[1].before_json!).status).toBe('processing')
    expect(JSON.parse(audit[1].after_json!).status).toBe('success')
    const messages = await api.db
      .selectFrom('notifications')
      .select(['title', 'content'])
      .where('user_id', '=', u.userId)
      .orderBy('created_at')
      .execute()
    // One of each, whatever their order within one millisecond of the test's clock (PostgreSQL
    // returns ties in any order); saving the bank account is a security notification of its own (decision 046).
    expect(messages.map((m) => m.title).sort()).toEqual(
      ['Bank account added', 'Wallet credited', 'Withdrawal requested', 'Withdrawal processing', 'Withdrawal paid'].sort(),
    )
    expect(messages.find((m) => m.title === 'Withdrawal paid')!.content).toBe('₦3,950.00 was paid to your bank. Reference: NIP-000123.')
  })

  it('fail a withdrawal with a reason: the hold returns to the balance as a withdraw_refund', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 400_000)).body.data
    expect((await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed' })).status).toBe(400) // no reason
    const failed = await admin(api).post<Withdrawal>('/admin/withdraw/update', {
      id: w.id,
      status: 'failed',
      reason: 'The bank refused the account name',
    })
    expect(failed.body.data).toMatchObject({ status: 'failed', reason: 'The bank refused the account name' })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    const log = (await api.get<{ list: BalanceLogEntry[] }>('/v1/user/pageBalanceLog', { token: u.token })).body.data.list
    expect(log[0]).toMatchObject({
      type: 'withdraw_refund',
      amount: 400_000,
      frozenChange: -400_000,
      refId: w.id,
      note: 'The bank refused the account name',
    })
    // A failed withdrawal no longer counts against today's maximum.
    expect((await walletInfo(api, u.token)).limits.remainingToday).toBe(50_000_000)
  })

  it('adjust a balance with a reason, once per requestId, never below zero', async () => {
    const { user, token } = await seedUser(api, { email: newEmail() })
    const key = requestId()
    const body = { userId: user.id, amount: 250_000, reason: 'Goodwill credit', requestId: key }
    const a = await admin(api).post<BalanceLogEntry>('/admin/wallet/adjust', body)
    const b = await admin(api).post<BalanceLogEntry>('/admin/wallet/adjust', body)
    expect(b.body.data.id).toBe(a.body.data.id)
    expect((await admin(api).post('/admin/wallet/adjust', { ...body, amount: 1 })).body.code).toBe(Refusals.IDEMPOTENCY_KEY_REUSED.code)
    expect((await admin(api).post('/admin/wallet/adjust', { ...body, amount: -300_000, requestId: requestId() })).body.code).toBe(
      Refusals.ADJUSTMENT_TOO_LARGE.code,
    )
    expect((await admin(api).post('/admin/wallet/adjust', { ...body, userId: 'nobody', requestId: requestId() })).body.code).toBe(
      Refusals.USER_NOT_FOUND.code,
    )
    expect((await admin(api).post('/admin/wallet/adjust', { ...body, amount: 0, requestId: requestId() })).status).toBe(400)
    expect((await walletInfo(api, token)).balance).toBe(250_000)
    await adjust(api, user.id, -50_000, 'Correction')
    expect((await walletInfo(api, token)).balance).toBe(200_000)
  })
})

describe('the Wallet screen in one call (/v1/wallet/overview)', () => {
  it('answers the balances, a page of activity and the withdrawals on their way, soonest due first', async () => {
    const u = await walletUser(api, { balance: 2_000_000 })
    const first = (await withdraw(api, u, 300_000)).body.data
    api.clock.advance(60_000)
    const second = (await withdraw(api, u, 400_000)).body.data
    const res = await api.get<WalletOverview>('/v1/wallet/overview?pageNum=1&pageSize=2', { token: u.token })
    expect(res.body.code).toBe(200)
    const overview = res.body.data
    expect(overview.info).toEqual(await walletInfo(api, u.token))
    expect(overview.log).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 })
    expect(overview.log.list.map((e) => e.refId)).toEqual([second.id, first.id])
    expect(overview.onTheirWay.map((w) => w.id)).toEqual([first.id, second.id])

    await admin(api).post('/admin/withdraw/update', { id: first.id, status: 'failed', reason: 'Bank details do not match' })
    const after = (await api.get<WalletOverview>('/v1/wallet/overview?pageNum=1&pageSize=20', { token: u.token })).body.data
    expect(after.onTheirWay.map((w) => w.id)).toEqual([second.id])
    expect(after.info).toMatchObject({ balance: 1_600_000, frozen: 400_000 })
  })

  it('needs a token, and names a bad page', async () => {
    expect((await api.get('/v1/wallet/overview')).status).toBe(401)
    const u = await walletUser(api)
    const bad = await api.get('/v1/wallet/overview?pageSize=lots', { token: u.token })
    expect(bad.status).toBe(400)
  })
})

describe('the wallet at a glance in /v1/user/index', () => {
  it('carries balance, on hold, PIN and bank cards, so Home and Account need no second call', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    await withdraw(api, u, 300_000)
    const index = (await api.get<{ wallet: unknown }>('/v1/user/index', { token: u.token })).body.data
    expect(index.wallet).toEqual({
      balance: 700_000,
      frozen: 300_000,
      currency: 'NGN',
      hasPin: true,
      bankCardCount: 1,
      timeZone: 'Africa/Lagos',
      resolvesNames: false,
    })
    const fresh = await seedUser(api, { email: newEmail() })
    expect((await api.get<{ wallet: unknown }>('/v1/user/index', { token: fresh.token })).body.data.wallet).toEqual({
      balance: 0,
      frozen: 0,
      currency: 'NGN',
      hasPin: false,
      bankCardCount: 0,
      timeZone: 'Africa/Lagos',
      resolvesNames: false,
    })
  })
})

describe('the books', () => {
  it('balance after all of the above: every wallet equals the sum of its entries', async () => {
    const u = await walletUser(api, { balance: 2_000_000 })
    await withdraw(api, u, 300_000)
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('the database refuses a negative balance even if code tried (CHECK constraint)', async () => {
    const u = await walletUser(api, { balance: 100 })
    await expect(api.db.updateTable('wallets').set({ balance: -1 }).where('user_id', '=', u.userId).execute()).rejects.toThrow()
  })
})
