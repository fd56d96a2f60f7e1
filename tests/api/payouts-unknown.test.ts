import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { DeskWithdrawal, PayoutAttention } from '#contract/ops/money'
import { Refusals } from '#contract/refusals'
import type { BalanceLogEntry } from '#contract/wallet'
import type { Withdrawal } from '#contract/withdrawals'
import { paystackProvider } from '../../api/lib/payouts/paystack'
import { ProviderUnavailable } from '../../api/lib/payouts/provider'
import { auditBooks } from '../../api/services/ledger'
import { reconcile, runDueReconciliation, runPayoutsOnce } from '../../api/services/payouts'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, feeOf, startFakePaystack } from '../support/paystack-fake'
import { admin, walletInfo, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * Decision 038 against a Paystack fake as strict as its documentation, on SQLite and PostgreSQL
 * (TEST_DB): unknown is never "not sent" (no refund on a doubt, the double-pay path), reversals
 * and contradictions are seen, the company's float and OTP are the company's problem, and
 * reconciliation reads every state. The clock is moved by hand; the worker's passes run by hand.
 */
const fake = await startFakePaystack()
const POLL_SECONDS = 60
const GRACE_SECONDS = 600
const UNKNOWN_LIMIT_SECONDS = 3_600
const api = useTestApi({
  web: false,
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: 5_000_000,
      pollSeconds: POLL_SECONDS,
      requestTimeoutMs: 1_500,
      leaseMs: 10_000,
      notFoundGraceMs: GRACE_SECONDS * 1000,
      unknownLimitMs: UNKNOWN_LIMIT_SECONDS * 1000,
      stuckMs: 30 * 60_000,
    },
  },
})
const NAME = 'Adaeze Obi'
const AMOUNT = 200_000
const FEE = 5_000
const NET = AMOUNT - FEE

beforeAll(() => {
  fake.webhookUrl = `${api.url}/v1/webhooks/paystack`
})
afterAll(() => fake.close())

const pass = () => runPayoutsOnce(api.deps)
const detail = async (u: WalletUser, id: string) =>
  (await api.get<Withdrawal>(`/v1/withdraw/detail?id=${id}`, { token: u.token })).body.data
const log = async (u: WalletUser) =>
  (await api.get<{ list: BalanceLogEntry[] }>('/v1/user/pageBalanceLog?pageSize=50', { token: u.token })).body.data.list
const madeOf = (reference: string) => fake.transferCalls.filter((c) => c.reference === reference && c.made)
const attention = async () => (await admin(api).get<PayoutAttention>('/admin/payouts/attention')).body.data
const row = (id: string) => api.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const audits = (id: string, action: string) =>
  api.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).where('action', '=', action).execute()
const metric = async (name: string) => (await api.deps.metrics.registry.metrics()).split('\n').filter((l) => l.startsWith(name))
/** Past every lease and poll wait (and the grace period). */
const later = (seconds = POLL_SECONDS * 64 + 10) => api.clock.advance(seconds * 1000)

async function withdrawn(amount = AMOUNT) {
  const u = await walletUser(api, { balance: 1_000_000, userName: NAME })
  const res = await withdraw(api, u, amount)
  expect(res.body.code).toBe(200)
  return { u, w: res.body.data }
}

/** An alert the api logs at error on purpose (the test setup fails on any other). */
const alertLogged = () => vi.spyOn(console, 'error').mockImplementation(() => undefined)

/** Still held, never refunded. */
async function held(u: WalletUser, id: string) {
  expect((await detail(u, id)).status).toBe('pending')
  expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000 - AMOUNT, frozen: AMOUNT })
  expect((await log(u)).filter((e) => e.type === 'withdraw_refund')).toEqual([])
}

describe('§1 unknown is not "not sent"', () => {
  it('a lost answer, then "duplicate reference" and verify’s read-after-write lag: the hold stays (never paid twice); found later, it goes on', async () => {
    fake.verifyLagMs = 1e9
    try {
      const { u, w } = await withdrawn()
      fake.troubleFor(w.id, 'transfer', { kind: 'timeout', after: true })
      await pass()
      expect(madeOf(w.id)).toHaveLength(1)
      await held(u, w.id)
      later()
      // Past the grace period verify still says "not found": the resend meets duplicate_reference.
      await pass()
      await held(u, w.id)
      expect(madeOf(w.id)).toHaveLength(1)
      expect((await row(w.id)).payout_problem).toMatch(/reference was used/)
    } finally {
      fake.verifyLagMs = 0
    }
    later()
    await pass()
    const all = fake.transferCalls.at(-1)!
    expect(madeOf(all.reference)).toHaveLength(1)
  })

  it('"not found" within the grace period after a send that may have reached Paystack is not absent: no second send, no refund', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: 'timeout' })
    await pass()
    // Due again before the grace period ends (the poll interval), verify says not found: wait.
    await api.db.updateTable('withdrawals').set({ payout_next_at: 0 }).where('id', '=', w.id).execute()
    api.clock.advance(20_000)
    await pass()
    expect(fake.transferCalls.filter((c) => c.reference === w.id)).toHaveLength(1)
    await held(u, w.id)
    expect(Number((await row(w.id)).payout_next_at)).toBeGreaterThanOrEqual(Number((await row(w.id)).payout_sent_at) + GRACE_SECONDS * 1000)
    // After it: absent, sent again under the same reference.
    later()
    await pass()
    expect(madeOf(w.id)).toHaveLength(1)
    expect((await detail(u, w.id)).status).toBe('processing')
  })

  it('verify answering 400 is unknown, not absent: the hold stays', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: 'timeout', after: true })
    await pass()
    fake.troubleFor(w.id, 'verify', { kind: 'refuse', status: 400 }, { kind: 'refuse', status: 400 }, { kind: 'refuse', status: 400 })
    later()
    await pass()
    await held(u, w.id)
    expect(madeOf(w.id)).toHaveLength(1)
  })

  it('429 with Retry-After is "try again later", honoured; never a failure', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: '429', retryAfter: 7_200 })
    await pass()
    await held(u, w.id)
    const r = await row(w.id)
    expect(Number(r.payout_next_at)).toBeGreaterThanOrEqual(api.clock.now() + 7_200_000)
    // Rate limited: Paystack did nothing, so nothing may exist.
    expect(r.payout_sent_at).toBeNull()
    api.clock.advance(7_200_000 + 1)
    await pass()
    expect((await detail(u, w.id)).status).toBe('processing')
    expect(madeOf(w.id)).toHaveLength(1)
  })

  it('unknown longer than the time limit: before a person on the desk with what is known, audited, counted; still held', async () => {
    const { u, w } = await withdrawn()
    fake.troubleFor(w.id, 'transfer', { kind: '5xx', status: 502 })
    await pass()
    fake.troubleFor(w.id, 'verify', ...Array.from({ length: 5 }, () => ({ kind: '5xx' as const })))
    api.clock.advance((UNKNOWN_LIMIT_SECONDS + 10) * 1000)
    await pass()
    await held(u, w.id)
    const desk = await attention()
    const mine = desk.needsPerson.find((x) => x.id === w.id)
    expect(mine?.payout).toMatchObject({ problem: expect.stringMatching(/verify.*500/) })
    expect(mine?.payout?.needsPersonAt).toBeTypeOf('number')
    expect(await audits(w.id, 'withdrawal.payout_needs_person')).toHaveLength(1)
    expect((await metric('payout_alerts_total')).join('\n')).toMatch(/kind="needs_person"} [1-9]/)
  })

  it('a connection refused before sending made nothing: the provider says so (no transfer may exist)', async () => {
    const closed = paystackProvider({ secretKey: FAKE_PAYSTACK_SECRET, baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_000 })
    const err = await closed
      .sendTransfer({
        reference: 'x'.repeat(20),
        amount: 1,
        currency: 'NGN',
        bankCode: '058',
        accountNumber: '0123456789',
        accountName: 'A',
        reason: 'r',
      })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderUnavailable)
    expect((err as ProviderUnavailable).transferMayExist).toBe(false)
  })
})

describe('§2 reversals and contradictions', () => {
  it('`reversed` without a success: never told "paid"; the money returns once, in the words for it', async () => {
    const { u, w } = await withdrawn()
    await pass()
    expect(await fake.settle(w.id, 'reversed', { webhooks: 2 })).toEqual([200, 200])
    const back = await detail(u, w.id)
    expect(back.status).toBe('reversed')
    expect(back.events.map((e) => e.status)).toEqual(['pending', 'processing', 'reversed'])
    expect(back.reason).toBe('Your bank could not receive the money; it is back in your wallet')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    expect((await log(u)).filter((e) => e.type === 'withdraw_reversal')).toEqual([
      expect.objectContaining({ amount: AMOUNT, frozenChange: -AMOUNT }),
    ])
    const titles = (await api.db.selectFrom('notifications').select('title').where('ref_id', '=', w.id).execute()).map((m) => m.title)
    expect(titles).not.toContain('Withdrawal paid')
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('a success after the money was returned: a conflict, audited, logged at error, counted, on the desk until a person resolves it', async () => {
    const { u, w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'failed')
    expect((await detail(u, w.id)).status).toBe('failed')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    // Paystack now says paid (what it says on verify too): money moved twice.
    fake.transfers.get(w.id)!.status = 'success'
    expect(await fake.sendWebhook('transfer.success', fake.webhookBody('transfer.success', w.id).data)).toBe(200)
    expect(errors.mock.calls.map((c) => c.map(String).join(' ')).join('\n')).toMatch(/conflict/)
    errors.mockRestore()
    expect((await detail(u, w.id)).status).toBe('failed')
    expect(await audits(w.id, 'withdrawal.payout_conflict')).toHaveLength(1)
    expect((await metric('payout_alerts_total')).join('\n')).toMatch(/kind="conflict"} [1-9]/)
    const desk = await attention()
    expect(desk.conflicts.find((x) => x.id === w.id)?.payout?.conflict).toMatch(/paid after the money was returned/)
    // Resolved by a person, with a note: off the desk, audited.
    const resolved = await admin(api).post<DeskWithdrawal>('/admin/withdraw/resolveConflict', {
      id: w.id,
      note: 'Recovered from the seller',
    })
    expect(resolved.body.code).toBe(200)
    expect((await attention()).conflicts.find((x) => x.id === w.id)).toBeUndefined()
    expect(await audits(w.id, 'withdrawal.payout_conflict_resolved')).toHaveLength(1)
    expect((await admin(api).post('/admin/withdraw/resolveConflict', { id: w.id, note: 'again' })).body.code).toBe(
      Refusals.PAYOUT_NO_CONFLICT.code,
    )
    expect(await auditBooks(api.db)).toEqual([])
  })

  it('a failure after a success: a conflict, nothing moves', async () => {
    const { u, w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'success')
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    fake.transfers.get(w.id)!.status = 'failed'
    expect(await fake.sendWebhook('transfer.failed', fake.webhookBody('transfer.failed', w.id).data)).toBe(200)
    errors.mockRestore()
    expect((await detail(u, w.id)).status).toBe('success')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000 - AMOUNT, frozen: 0 })
    expect((await row(w.id)).payout_conflict).toMatch(/failed after it was marked paid/)
  })

  it('pending or processing longer than the setting: escalated on the desk and in the metrics', async () => {
    const { w } = await withdrawn()
    await pass()
    api.clock.advance(31 * 60_000)
    expect((await attention()).stuck.map((x) => x.id)).toContain(w.id)
    expect((await metric('payouts_needing_attention')).join('\n')).toMatch(/kind="stuck"} [1-9]/)
    await fake.settle(w.id, 'success')
  })
})

describe('§3 the float and OTP are the company’s problem', () => {
  it('a balance that cannot cover the next payout: it waits ("queued"), never failed; a banner with the shortfall; it resumes by itself', async () => {
    fake.balance = 100_000
    const errors = alertLogged()
    try {
      const { u, w } = await withdrawn()
      await pass()
      expect(errors.mock.calls.join('\n')).toMatch(/payout alert/)
      await held(u, w.id)
      expect(madeOf(w.id)).toHaveLength(0)
      expect((await row(w.id)).payout_state).toBe('queued')
      expect((await detail(u, w.id)).queued).toBe(true)
      const banner = (await attention()).alerts.find((a) => a.kind === 'low_balance')
      expect(banner?.amount).toBeGreaterThanOrEqual(NET - 100_000)
      expect(banner?.message).toMatch(/top it up/)
      expect((await metric('payout_alerts_total')).join('\n')).toMatch(/kind="low_balance"} [1-9]/)
      fake.balance = 1e13
      later()
      await pass()
      expect((await detail(u, w.id)).status).toBe('processing')
      expect((await attention()).alerts.find((a) => a.kind === 'low_balance')).toBeUndefined()
    } finally {
      fake.balance = 1e13
    }
  })

  it('an "insufficient balance" refusal (the balance could not be asked first) never fails a withdrawal', async () => {
    fake.balance = 100_000
    fake.trouble('balance', { kind: '5xx' })
    alertLogged()
    try {
      const { u, w } = await withdrawn()
      await pass()
      await held(u, w.id)
      expect((await row(w.id)).payout_sent_at).toBeNull()
    } finally {
      fake.balance = 1e13
    }
  })

  it('`otp`: flagged at once on the desk with what to do; the OTP entered on the desk finalizes the transfer', async () => {
    fake.answerWith = 'otp'
    try {
      const { u, w } = await withdrawn()
      await pass()
      const flagged = (await attention()).otp.find((x) => x.id === w.id)
      expect(flagged?.payout?.problem).toMatch(/turn transfer OTP off.*or enter the OTP/)
      expect(await audits(w.id, 'withdrawal.payout_otp')).toHaveLength(1)
      const wrong = await admin(api).post('/admin/withdraw/finalizeOtp', { id: w.id, otp: '000000' })
      expect(wrong.body.code).toBe(Refusals.PAYOUT_OTP_REFUSED.code)
      const right = await admin(api).post<DeskWithdrawal>('/admin/withdraw/finalizeOtp', { id: w.id, otp: fake.otp })
      expect(right.body.code).toBe(200)
      expect(fake.transfers.get(w.id)!.status).toBe('pending')
      expect((await attention()).otp.find((x) => x.id === w.id)).toBeUndefined()
      expect(api.logs.join('\n')).not.toContain(`"otp":"${fake.otp}"`)
      await fake.settle(w.id, 'success')
      expect((await detail(u, w.id)).status).toBe('success')
    } finally {
      fake.answerWith = 'pending'
    }
  })

  it('`abandoned`: the money returns once, saying why', async () => {
    fake.answerWith = 'otp'
    try {
      const { u, w } = await withdrawn()
      await pass()
      await fake.settle(w.id, 'abandoned')
      later()
      await pass()
      const back = await detail(u, w.id)
      expect(back.status).toBe('failed')
      expect(back.reason).toMatch(/cancelled before it was sent/)
      expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
      expect((await log(u)).filter((e) => e.type === 'withdraw_refund')).toHaveLength(1)
    } finally {
      fake.answerWith = 'pending'
    }
  })
})

describe('§6 reconciliation', () => {
  it('asks every state with per_page and page, records fee_charged, and reports a row it cannot read without failing', async () => {
    const { w } = await withdrawn()
    await pass()
    await fake.settle(w.id, 'success')
    fake.listJunk = [{ reference: 42, amount: 'lots' }]
    try {
      const from = api.clock.now() - 86_400_000
      const to = api.clock.now() + 86_400_000
      const before = fake.calls.length
      const report = await reconcile(api.deps, from, to)
      const lists = fake.calls.slice(before).filter((c) => c.route === 'list')
      expect(lists.every((c) => /per_page=100/.test(c.query ?? '') && /page=1/.test(c.query ?? ''))).toBe(true)
      expect(new Set(lists.map((c) => new URLSearchParams(c.query).get('status')))).toEqual(
        new Set(['pending', 'success', 'failed', 'otp', 'abandoned', 'reversed', 'blocked', 'rejected', 'received']),
      )
      // A paid transfer is found (the list's default state is only `pending`).
      expect(report.differences.filter((d) => d.reference === w.id)).toEqual([])
      expect(report.unreadable).toEqual([expect.objectContaining({ status: 'pending', page: 1 })])
      expect(Number((await row(w.id)).payout_fee)).toBe(feeOf(NET))
    } finally {
      fake.listJunk = []
    }
  })

  it('on demand from the desk: differences raise the banner, each with what to do', async () => {
    const { w } = await withdrawn()
    await pass()
    fake.transfers.get(w.id)!.status = 'failed'
    alertLogged()
    const res = await admin(api).post<{ differences: { reference: string; action: string }[] }>('/admin/payouts/reconcileRecent', {})
    expect(res.body.code).toBe(200)
    const mine = res.body.data.differences.find((d) => d.reference === w.id)
    expect(mine?.action).toMatch(/asks Paystack again/)
    expect((await attention()).alerts.find((a) => a.kind === 'reconcile')?.message).toMatch(/difference/)
    fake.transfers.get(w.id)!.status = 'pending'
  })

  it('runs by itself once a day over the last 7 days, not more often', async () => {
    const lists = () => fake.calls.filter((c) => c.route === 'list').length
    alertLogged()
    const before = lists()
    await runDueReconciliation(api.deps)
    const once = lists()
    expect(once).toBeGreaterThan(before)
    const q = new URLSearchParams(fake.calls.filter((c) => c.route === 'list').at(-1)!.query)
    expect(Date.parse(q.get('to')!) - Date.parse(q.get('from')!)).toBe(7 * 86_400_000)
    api.clock.advance(3_600_000)
    await runDueReconciliation(api.deps)
    expect(lists()).toBe(once)
    api.clock.advance(86_400_000)
    await runDueReconciliation(api.deps)
    expect(lists()).toBeGreaterThan(once)
  })
})
