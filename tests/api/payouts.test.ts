import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import type { BalanceLogEntry } from '#contract/wallet'
import type { Withdrawal } from '#contract/withdrawals'
import { auditBooks } from '../../api/services/ledger'
import { reconcile, runPayoutsOnce } from '../../api/services/payouts'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { admin, walletInfo, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * Automatic payouts against a local Paystack speaking its wire format (tests/support/paystack-fake.ts),
 * on SQLite and PostgreSQL (TEST_DB): the worker's passes are run by hand (runPayoutsOnce) and the
 * clock is moved by hand, so nothing here waits on a timer.
 */
const fake = await startFakePaystack()
const POLL_SECONDS = 60
const AUTO_MAX = 5_000_000
const api = useTestApi({
  web: false,
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: AUTO_MAX,
      pollSeconds: POLL_SECONDS,
      // Short, so the timeout cases stay quick; the api, the fake and the test share one event loop.
      requestTimeoutMs: 1_500,
      leaseMs: 10_000,
    },
  },
})
/** The profile's name, close to the name the fake's banks hold (ADAEZE OBI). */
const NAME = 'Adaeze Obi'
const AMOUNT = 200_000
const FEE = 5_000

beforeAll(() => {
  fake.webhookUrl = `${api.url}/v1/webhooks/paystack`
})
afterAll(() => fake.close())

const pass = () => runPayoutsOnce(api.deps)
const detail = async (u: WalletUser, id: string) =>
  (await api.get<Withdrawal>(`/v1/withdraw/detail?id=${id}`, { token: u.token })).body.data
const log = async (u: WalletUser) =>
  (await api.get<{ list: BalanceLogEntry[] }>('/v1/user/pageBalanceLog?pageSize=50', { token: u.token })).body.data.list
const attemptsOf = (reference: string) => fake.transferCalls.filter((c) => c.reference === reference)
const madeOf = (reference: string) => attemptsOf(reference).filter((c) => c.made)

/** A person with ₦10,000 who asked for a withdrawal of ₦2,000 (fee ₦50 included). */
async function withdrawn(amount = AMOUNT) {
  const u = await walletUser(api, { balance: 1_000_000, userName: NAME })
  const res = await withdraw(api, u, amount)
  expect(res.body.code).toBe(200)
  return { u, w: res.body.data }
}

/** Past every lease and poll wait. */
const later = (seconds = POLL_SECONDS * 64 + 10) => api.clock.advance(seconds * 1000)

describe('a payout that goes through', () => {
  it('pending → processing (transfer sent, reference = the withdrawal id) → success on the webhook, with the transfer code and session id on the receipt', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: NAME })
    const started = performance.now()
    const w = (await withdraw(api, u, AMOUNT)).body.data
    expect(w.status).toBe('pending')
    // Under the approval line: the promise is minutes, not a day.
    expect(w.expectedBy - w.createdAt).toBeLessThanOrEqual(15 * 60_000)
    expect((await pass()).claimed).toBeGreaterThanOrEqual(1)
    const sent = await detail(u, w.id)
    expect(sent.status).toBe('processing')
    const t = fake.transfers.get(w.id)!
    expect(t).toMatchObject({ amount: AMOUNT - FEE, currency: 'NGN', reference: w.id })
    expect(sent.transferCode).toBe(t.transfer_code)
    expect(await fake.settle(w.id, 'success')).toEqual([200])
    const paid = await detail(u, w.id)
    const ms = performance.now() - started
    expect(paid.status).toBe('success')
    expect(paid.transferCode).toBe(t.transfer_code)
    expect(paid.sessionId).toMatch(/^\d{30}$/)
    expect(paid.reference).toBe(paid.sessionId)
    expect(paid.events.map((e) => e.status)).toEqual(['pending', 'processing', 'success'])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000 - AMOUNT, frozen: 0 })
    expect(madeOf(w.id)).toHaveLength(1)
    expect(await auditBooks(api.db)).toEqual([])
    console.info(`[figures] ${api.dbKind}: withdraw → paid with the fake (create, one worker pass, one webhook) in ${ms.toFixed(0)} ms`)
  })

  it('a transfer answered `success` straight away is paid on the first pass', async () => {
    fake.answerWith = 'success'
    try {
      const { u, w } = await withdrawn()
      await pass()
      expect((await detail(u, w.id)).status).toBe('success')
      expect(await walletInfo(api, u.token)).toMatchObject({ frozen: 0 })
    } finally {
      fake.answerWith = 'pending'
    }
  })

  it('`otp` waits; with no webhook the poll asks by reference after PAYOUT_POLL_SECONDS, then with backoff', async () => {
    fake.answerWith = 'otp'
    try {
      const { u, w } = await withdrawn()
      await pass()
      expect((await detail(u, w.id)).status).toBe('processing')
      const verifies = () => fake.calls.filter((c) => c.route === 'verify' && c.reference === w.id).length
      const before = verifies()
      await pass()
      expect(verifies(), 'not due yet: no poll').toBe(before)
      api.clock.advance(POLL_SECONDS * 1000 + 1)
      await pass()
      expect(verifies()).toBe(before + 1)
      expect((await detail(u, w.id)).status).toBe('processing')
      // The second wait is longer than the first.
      api.clock.advance(POLL_SECONDS * 1000 + 1)
      await pass()
      expect(verifies()).toBe(before + 1)
      fake.transfers.get(w.id)!.status = 'success'
      fake.transfers.get(w.id)!.session = { provider: 'nip', id: '1'.repeat(30) }
      api.clock.advance(POLL_SECONDS * 1000 + 1)
      await pass()
      expect(await detail(u, w.id)).toMatchObject({ status: 'success', sessionId: '1'.repeat(30) })
    } finally {
      fake.answerWith = 'pending'
    }
  })

  it('a slow answer is still one transfer', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: 'slow', ms: 150 })
    await pass()
    expect((await detail(u, w.id)).status).toBe('processing')
    expect(attemptsOf(w.id)).toHaveLength(1)
  })
})

describe('a provider that fails or loses answers: at least once, never twice', () => {
  it('a timeout after the transfer was made: nothing moves, then the next pass asks by reference FIRST and finds it (no second send)', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: 'timeout', after: true })
    await pass()
    expect((await detail(u, w.id)).status).toBe('pending')
    expect(madeOf(w.id)).toHaveLength(1)
    later()
    await pass()
    expect((await detail(u, w.id)).status).toBe('processing')
    expect(attemptsOf(w.id), 'asked, did not send again').toHaveLength(1)
    await fake.settle(w.id, 'success')
    expect((await detail(u, w.id)).status).toBe('success')
  })

  it('a timeout before anything was made: the next pass asks, finds nothing, sends again under the same reference', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: 'timeout' })
    await pass()
    expect(madeOf(w.id)).toHaveLength(0)
    later()
    await pass()
    expect((await detail(u, w.id)).status).toBe('processing')
    expect(madeOf(w.id)).toHaveLength(1)
  })

  it('a 5xx on the transfer, then on verify: waits and tries again; one transfer in the end', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: '5xx', status: 502 })
    await pass()
    expect((await detail(u, w.id)).status).toBe('pending')
    fake.troubleFor(w.id, 'verify', { kind: '5xx' })
    later()
    await pass()
    expect((await detail(u, w.id)).status).toBe('pending')
    expect(madeOf(w.id)).toHaveLength(0)
    later()
    await pass()
    expect((await detail(u, w.id)).status).toBe('processing')
    expect(madeOf(w.id)).toHaveLength(1)
    expect(await walletInfo(api, u.token)).toMatchObject({ frozen: AMOUNT })
  })

  it('a 4xx whose meaning is not known is unknown: the hold stays, nothing is refunded (decision 038)', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: '5xx', status: 422 })
    await pass()
    expect((await detail(u, w.id)).status).toBe('pending')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000 - AMOUNT, frozen: AMOUNT })
    expect((await log(u)).filter((e) => e.type === 'withdraw_refund')).toEqual([])
  })

  it('an account Paystack refuses (recipient creation fails) fails with a reason the person can act on, the hold returned in full', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: NAME })
    const card = await api.db.selectFrom('bank_cards').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    // No recipient kept (Paystack could not make one when the account was saved): the payout makes it.
    await api.db.updateTable('bank_cards').set({ recipient_code: null }).where('id', '=', card.id).execute()
    const w = (await withdraw(api, u, AMOUNT)).body.data
    fake.accounts.set(`${card.bank_code}:${card.account_number}`, null)
    await pass()
    const failed = await detail(u, w.id)
    expect(failed.status).toBe('failed')
    expect(failed.reason).toMatch(/choose another/)
    expect(fake.transfers.has(w.id)).toBe(false)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    expect((await log(u))[0]).toMatchObject({ type: 'withdraw_refund', amount: AMOUNT, frozenChange: -AMOUNT })
  })

  it('accepted, then failed by webhook: failed, the hold returns in full, with the reason in words', async () => {
    const { u, w } = await withdrawn()
    await pass()
    expect(await fake.settle(w.id, 'failed')).toEqual([200])
    const failed = await detail(u, w.id)
    expect(failed).toMatchObject({ status: 'failed', reason: 'The bank did not accept this payout' })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    // The poll does not come back for it.
    const calls = fake.calls.length
    later()
    await pass()
    expect(fake.calls.slice(calls).filter((c) => c.reference === w.id)).toEqual([])
  })

  it('succeeded, then reversed: the full amount, fee included, is back once, with a message', async () => {
    const { u, w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'success')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000 - AMOUNT, frozen: 0 })
    expect(await fake.settle(w.id, 'reversed', { webhooks: 2 })).toEqual([200, 200])
    const back = await detail(u, w.id)
    expect(back.status).toBe('reversed')
    expect(back.events.map((e) => e.status)).toEqual(['pending', 'processing', 'success', 'reversed'])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    const reversals = (await log(u)).filter((e) => e.type === 'withdraw_reversal')
    expect(reversals).toEqual([expect.objectContaining({ amount: AMOUNT, frozenChange: 0, refId: w.id })])
    const messages = await api.db.selectFrom('notifications').selectAll().where('ref_id', '=', w.id).execute()
    expect(messages.map((m) => m.title)).toContain('Withdrawal returned by the bank')
    expect(await auditBooks(api.db)).toEqual([])
  })
})

describe('webhooks', () => {
  it('the same webhook twice: one move, one ledger entry, 200 both times', async () => {
    const { u, w } = await withdrawn()
    await pass()
    expect(await fake.settle(w.id, 'success', { webhooks: 2 })).toEqual([200, 200])
    expect((await log(u)).filter((e) => e.type === 'withdraw_paid')).toHaveLength(1)
    expect((await detail(u, w.id)).events.filter((e) => e.status === 'success')).toHaveLength(1)
  })

  it('out of order (reversed before success): reversed; the late success changes nothing', async () => {
    const { u, w } = await withdrawn()
    await pass()
    const successBody = fake.webhookBody('transfer.success', w.id, 'success')
    await fake.settle(w.id, 'reversed')
    expect((await detail(u, w.id)).status).toBe('reversed')
    expect(await fake.sendWebhook('transfer.success', successBody.data)).toBe(200)
    expect(await fake.sendWebhook('transfer.failed', fake.webhookBody('transfer.failed', w.id).data)).toBe(200)
    expect((await detail(u, w.id)).status).toBe('reversed')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('a webhook before the transfer call answers: paid, and the late `pending` answer does not move it back', async () => {
    fake.webhookBeforeAnswer = true
    try {
      const { u, w } = await withdrawn()
      await pass()
      const paid = await detail(u, w.id)
      expect(paid.status).toBe('success')
      expect(paid.events.map((e) => e.status)).toEqual(['pending', 'processing', 'success'])
      expect(await walletInfo(api, u.token)).toMatchObject({ frozen: 0 })
    } finally {
      fake.webhookBeforeAnswer = false
    }
  })

  it('a forged, missing or truncated signature: 401 and nothing changes', async () => {
    const { u, w } = await withdrawn()
    await pass()
    const body = fake.webhookBody('transfer.success', w.id)
    expect(await fake.sendWebhook('transfer.success', body.data, { signature: 'ab'.repeat(64) })).toBe(401)
    expect(await fake.sendWebhook('transfer.success', body.data, { signature: null })).toBe(401)
    expect(await fake.sendWebhook('transfer.success', body.data, { signature: 'abc' })).toBe(401)
    // Signed with another key (a test key of someone else).
    const { createHmac } = await import('node:crypto')
    const raw = JSON.stringify(body)
    expect(await fake.sendWebhook('', undefined, { raw, signature: createHmac('sha512', 'sk_test_other').update(raw).digest('hex') })).toBe(
      401,
    )
    // The right signature over other bytes (one space added after signing).
    const signed = createHmac('sha512', FAKE_PAYSTACK_SECRET).update(raw).digest('hex')
    expect(await fake.sendWebhook('', undefined, { raw: `${raw} `, signature: signed })).toBe(401)
    expect((await detail(u, w.id)).status).toBe('processing')
  })

  it('validly signed but unknown, unreadable or not about transfers: 200 and nothing changes', async () => {
    expect(await fake.sendWebhook('transfer.success', { ...fake.webhookBody('transfer.success', 'wd_unknown_reference_0001').data })).toBe(
      200,
    )
    expect(await fake.sendWebhook('charge.success', { reference: 'x', amount: 1 })).toBe(200)
    expect(await fake.sendWebhook('', undefined, { raw: 'not json at all' })).toBe(200)
    expect(await fake.sendWebhook('', undefined, { raw: '{"event":"transfer.success","data":{"reference":42}}' })).toBe(200)
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('a signed event whose amount is not the withdrawal’s moves nothing', async () => {
    const { u, w } = await withdrawn()
    await pass()
    const body = fake.webhookBody('transfer.success', w.id)
    expect(await fake.sendWebhook('transfer.success', { ...body.data, amount: 99_999_999 })).toBe(200)
    expect((await detail(u, w.id)).status).toBe('processing')
  })

  it('a body over the limit is refused before it is read', async () => {
    const res = await fetch(`${api.url}/v1/webhooks/paystack`, {
      method: 'POST',
      body: 'x'.repeat(100_000),
      headers: { 'x-paystack-signature': 'a'.repeat(128) },
    })
    expect(res.status).toBe(413)
  })
})

describe('the approval line and the payout desk', () => {
  it('above AUTO_PAYOUT_MAX the worker waits for approval; approved, it pays', async () => {
    const u = await walletUser(api, { balance: 10_000_000, userName: NAME })
    const w = (await withdraw(api, u, AUTO_MAX + 1)).body.data
    expect(w.expectedBy - w.createdAt).toBeGreaterThan(60 * 60_000)
    await pass()
    expect(fake.transfers.has(w.id)).toBe(false)
    // An operator cannot mark it paid by hand: the provider pays it.
    const manual = await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
    expect(manual.body.code).toBe(Refusals.PAYOUT_AUTOMATIC.code)
    const approved = await admin(api).post<Withdrawal>('/admin/withdraw/approve', { id: w.id })
    expect(approved.body.code).toBe(200)
    expect((await admin(api).post('/admin/withdraw/approve', { id: w.id })).body.code).toBe(Refusals.PAYOUT_NOT_AWAITING_APPROVAL.code)
    await pass()
    expect(fake.transfers.get(w.id)?.amount).toBe(AUTO_MAX + 1 - FEE)
    // Once sent, an operator cannot fail it either.
    const fail = await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'operator says no' })
    expect(fail.body.code).toBe(Refusals.PAYOUT_AUTOMATIC.code)
  })

  it('an operator may fail a payout waiting for approval: the hold returns, the worker never sends it', async () => {
    const u = await walletUser(api, { balance: 10_000_000, userName: NAME })
    const w = (await withdraw(api, u, AUTO_MAX + 1)).body.data
    const res = await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account under review' })
    expect(res.body.code).toBe(200)
    later()
    await pass()
    expect(fake.transfers.has(w.id)).toBe(false)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 10_000_000, frozen: 0 })
  })
})

describe('workers racing', () => {
  it('four passes at once over 40 withdrawals: each sent exactly once', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => walletUser(api, { balance: 2_000_000, userName: NAME })))
    const ids: string[] = []
    for (const u of people) for (let i = 0; i < 5; i++) ids.push((await withdraw(api, u, AMOUNT)).body.data.id)
    const started = performance.now()
    // Rows of earlier tests may be due too, and a call that timed out waits for its next look:
    // rounds of four racing passes until every one was sent.
    for (let round = 0; round < 10 && ids.some((id) => madeOf(id).length === 0); round++) {
      await Promise.all([pass(), pass(), pass(), pass()])
      later()
    }
    const ms = performance.now() - started
    for (const id of ids) expect(madeOf(id), id).toHaveLength(1)
    expect(api.logs.filter((l) => l.includes('a pass failed'))).toEqual([])
    console.info(`[figures] ${api.dbKind}: 40 payouts sent by 4 racing passes in ${ms.toFixed(0)} ms (${((40 / ms) * 1000).toFixed(0)}/s)`)
  })
})

describe('reconciliation', () => {
  it('lists every difference between our payouts and the provider’s transfers of a day', async () => {
    const { w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'success')
    const { w: other } = await withdrawn()
    await pass()
    // The provider says failed; we still think it is on its way.
    fake.transfers.get(other.id)!.status = 'failed'
    const from = api.clock.now() - 86_400_000
    const to = api.clock.now() + 86_400_000
    const { differences } = await reconcile(api.deps, from, to)
    const mine = differences.filter((d) => d.reference === w.id || d.reference === other.id)
    expect(mine).toEqual([expect.objectContaining({ reference: other.id, ours: 'processing', theirs: 'failed', problem: 'another state' })])
  })
})

describe('secrets', () => {
  it('the provider key and the webhook signatures never reach the logs', async () => {
    const { w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'success')
    const logs = api.logs.join('\n')
    expect(logs).not.toContain(FAKE_PAYSTACK_SECRET)
    expect(logs).not.toMatch(/[0-9a-f]{128}/)
  })
})
