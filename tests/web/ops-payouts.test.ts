import { describe, expect, it } from 'vitest'
import * as desk from '~/ops/routes/ops.payouts'
import * as reconcile from '~/ops/routes/ops.payouts_.reconcile'
import { staffJar, staffToastOf } from '../support/console'
import { useTestApi } from '../support/kit'
import { walletInfo, walletUser, withdraw } from '../support/wallet'
import { jsonOf, load, submit } from '../support/web'

/** The payout desk (manual payouts) against the real api: the queue, each move, refusals beside the row. */
const api = useTestApi()

async function pendingWithdrawal(amount = 500_000) {
  const u = await walletUser(api, { balance: 1_000_000, userName: 'Adaeze Obi' })
  const w = (await withdraw(api, u, amount)).body.data
  return { u, w }
}

/** The desk's row of one withdrawal: oldest first, 50 a page, and other tests leave theirs waiting, so every page is looked at. */
const row = async (jar: Awaited<ReturnType<typeof staffJar>>['jar'], status: string, id: string) => {
  for (let page = 1; page <= 100; page++) {
    const shown = await jsonOf(await load(desk.loader, `/ops/payouts?status=${status}&page=${page}`, jar))
    const found = shown.list.find((w: { id: string }) => w.id === id)
    if (found || shown.list.length === 0) return found
  }
}

describe('/ops/payouts: the payout desk', () => {
  it('lists pending withdrawals oldest first with the person, the bank account (last four only), amount, fee and no provider', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const first = await pendingWithdrawal(300_000)
    api.clock.advance(1_000)
    const second = await pendingWithdrawal(400_000)
    const res = await load(desk.loader, '/ops/payouts', jar)
    expect(res.status).toBe(200)
    const text = await res.clone().text()
    const page = await jsonOf(res)
    expect(page.status).toBe('pending')
    const ids = page.list.map((w: { id: string }) => w.id)
    expect(ids.indexOf(first.w.id)).toBeLessThan(ids.indexOf(second.w.id))
    const shown = page.list.find((w: { id: string }) => w.id === first.w.id)
    expect(shown).toMatchObject({ email: first.u.email, userName: 'Adaeze Obi', amount: 300_000, payout: null, nameFlagged: false })
    expect(shown.bankCard.maskedNumber).toMatch(/\d{4}$/)
    // The full account number never reaches the page.
    const full = (
      await api.db.selectFrom('bank_cards').select('account_number').where('id', '=', first.u.card!.id).executeTakeFirstOrThrow()
    ).account_number
    expect(text).not.toContain(full)
    expect(page.counts.pending).toBeGreaterThanOrEqual(2)
  })

  it('pages by 50 with Previous and Next links that keep the tab; a bad page is a clear 400', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const u = await walletUser(api, { balance: 10_000_000, userName: 'Many Withdrawals' })
    for (let i = 0; i < 51; i++) expect((await withdraw(api, u, 100_000)).body.code).toBe(200)
    const first = await jsonOf(await load(desk.loader, '/ops/payouts?status=pending', jar))
    const total = first.counts.pending
    expect(total).toBeGreaterThan(50)
    expect(first.list).toHaveLength(50)
    expect(first.paging).toEqual({ label: `1–50 of ${total}`, previous: null, next: '/ops/payouts?status=pending&page=2' })
    const second = await jsonOf(await load(desk.loader, first.paging.next, jar))
    expect(second.status).toBe('pending')
    expect(second.paging).toMatchObject({ label: `51–${Math.min(100, total)} of ${total}`, previous: '/ops/payouts?status=pending' })
    const seen = new Set(first.list.map((w: { id: string }) => w.id))
    expect(second.list.length).toBeGreaterThan(0)
    for (const w of second.list as { id: string }[]) expect(seen.has(w.id)).toBe(false)
    const bad = await load(desk.loader, '/ops/payouts?status=pending&page=-2', jar)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).problem).toBe('page: a whole page number from 1 to 100000')
  })

  it('an unknown status reads as pending; admin may open the desk, a reviewer gets 403 on the loader and the action', async () => {
    const { jar: adminJar } = await staffJar(api, 'admin')
    expect((await jsonOf(await load(desk.loader, '/ops/payouts?status=<script>', adminJar))).status).toBe('pending')
    const { jar } = await staffJar(api, 'reviewer')
    const { w } = await pendingWithdrawal()
    expect((await load(desk.loader, '/ops/payouts', jar)).status).toBe(403)
    expect((await submit(desk.action, '/ops/payouts', { intent: 'processing', id: w.id }, jar)).status).toBe(403)
    expect((await load(reconcile.loader, '/ops/payouts/reconcile?date=2026-01-01', jar)).status).toBe(403)
    expect((await api.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status).toBe(
      'pending',
    )
  })

  it('mark processing, then paid with the bank reference: the seller sees it paid with that reference', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { u, w } = await pendingWithdrawal()
    const moved = await submit(desk.action, '/ops/payouts?status=pending', { intent: 'processing', id: w.id }, jar)
    expect(moved).toHaveRedirect('/ops/payouts?status=pending')
    expect(await staffToastOf(moved)).toMatchObject({ type: 'success', message: 'Marked processing' })
    expect(await row(jar, 'processing', w.id)).toMatchObject({ status: 'processing' })
    const paid = await submit(desk.action, '/ops/payouts?status=processing', { intent: 'paid', id: w.id, reference: 'NIP-000123' }, jar)
    expect(paid).toHaveRedirect('/ops/payouts?status=processing')
    const seen = (await api.get<{ status: string; reference: string }>(`/v1/withdraw/detail?id=${w.id}`, { token: u.token })).body.data
    expect(seen).toMatchObject({ status: 'success', reference: 'NIP-000123' })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 500_000, frozen: 0 })
  })

  it('failed with a reason returns the hold, once: the same move again changes nothing, another move is refused beside the row', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { u, w } = await pendingWithdrawal()
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 500_000, frozen: 500_000 })
    const failed = await submit(desk.action, '/ops/payouts', { intent: 'failed', id: w.id, reason: 'The account is closed' }, jar)
    expect(failed).toHaveRedirect('/ops/payouts')
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
    expect(await row(jar, 'failed', w.id)).toMatchObject({ reason: 'The account is closed' })
    // A second click of the same button: answered as done, the hold does not return twice.
    const again = await submit(desk.action, '/ops/payouts?status=failed', { intent: 'failed', id: w.id, reason: 'Once more' }, jar)
    expect(again).toHaveRedirect('/ops/payouts?status=failed')
    const refunds = await api.db
      .selectFrom('balance_logs')
      .select('id')
      .where('ref_id', '=', w.id)
      .where('type', '=', 'withdraw_refund')
      .execute()
    expect(refunds).toHaveLength(1)
    const moved = await submit(desk.action, '/ops/payouts?status=failed', { intent: 'processing', id: w.id }, jar)
    expect(moved.status).toBe(409)
    expect(await jsonOf(moved)).toEqual({ id: w.id, message: 'A failed withdrawal cannot become processing' })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
  })

  it('paying a pending one (not yet processing) is the api’s refusal, beside that row; nothing moves', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { w } = await pendingWithdrawal()
    const res = await submit(desk.action, '/ops/payouts', { intent: 'paid', id: w.id, reference: 'REF-1' }, jar)
    expect(res.status).toBe(409)
    expect((await jsonOf(res)).id).toBe(w.id)
    expect(await row(jar, 'pending', w.id)).toMatchObject({ status: 'pending' })
  })

  it('hostile input is a clear 400: a 10 000-character reference, an injected amount, an unknown intent, no reason', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { u, w } = await pendingWithdrawal()
    await submit(desk.action, '/ops/payouts', { intent: 'processing', id: w.id }, jar)
    const long = await submit(desk.action, '/ops/payouts', { intent: 'paid', id: w.id, reference: 'R'.repeat(10_000) }, jar)
    expect(long.status).toBe(400)
    expect(await jsonOf(long)).toEqual({ id: w.id, message: 'The reference is at most 120 characters' })
    const injected = await submit(desk.action, '/ops/payouts', { intent: 'paid', id: w.id, reference: 'REF-2', amount: '1' }, jar)
    expect(injected.status).toBe(400)
    expect((await jsonOf(injected)).message).toBe('This form does not take amount')
    const intent = await submit(desk.action, '/ops/payouts', { intent: 'refund', id: w.id }, jar)
    expect(intent.status).toBe(400)
    expect((await jsonOf(intent)).message).toBe('Choose one of the row’s actions')
    const noReason = await submit(desk.action, '/ops/payouts', { intent: 'failed', id: w.id, reason: ' ' }, jar)
    expect(noReason.status).toBe(400)
    const empty = await submit(desk.action, '/ops/payouts', {}, jar)
    expect(empty.status).toBe(400)
    expect(await row(jar, 'processing', w.id)).toMatchObject({ status: 'processing', reference: null })
    expect(await walletInfo(api, u.token)).toMatchObject({ frozen: 500_000 })
  })

  it('reconcile: manual payouts have nothing to reconcile; a bad day is a clear 400', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const page = await jsonOf(await load(reconcile.loader, '/ops/payouts/reconcile?date=2026-01-31', jar))
    expect(page).toMatchObject({ date: '2026-01-31', report: { provider: 'manual', checked: 0, differences: [] }, problem: null })
    const bad = await load(reconcile.loader, '/ops/payouts/reconcile?date=2026-02-31', jar)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).problem).toBe('date: not a day of the calendar')
    expect((await jsonOf(await load(reconcile.loader, '/ops/payouts/reconcile', jar))).report).toBeNull()
  })
})

describe('/ops/payouts: what needs a person (decision 038)', () => {
  /** An automatic payout as the worker leaves it, set on the row directly (this api pays by hand). */
  async function automatic(fields: Record<string, unknown>) {
    const { u, w } = await pendingWithdrawal()
    await api.db
      .updateTable('withdrawals')
      .set({ payout_provider: 'paystack', payout_reference: w.id, payout_sent_at: api.clock.now(), ...fields })
      .where('id', '=', w.id)
      .execute()
    return { u, w }
  }

  it('a banner with the float’s shortfall and a payout unknown too long are on the desk', async () => {
    const { jar } = await staffJar(api, 'payouts')
    await api.db
      .insertInto('payout_alerts')
      .values({
        kind: 'low_balance',
        message: 'The Paystack balance cannot cover the payouts waiting: top it up by ₦1,950.00',
        amount: 195_000,
        raised_at: 1,
        updated_at: 1,
      })
      .onConflict((oc) => oc.column('kind').doNothing())
      .execute()
    const { w } = await automatic({
      payout_unknown_since: 1,
      payout_needs_person_at: 2,
      payout_problem: 'Paystack GET /transfer/verify: 500',
    })
    const page = await jsonOf(await load(desk.loader, '/ops/payouts', jar))
    expect(page.attention.alerts).toEqual([expect.objectContaining({ kind: 'low_balance', amount: 195_000 })])
    expect(page.attention.needsPerson.find((x: { id: string }) => x.id === w.id)?.payout.problem).toMatch(/verify: 500/)
    await api.db.deleteFrom('payout_alerts').execute()
  })

  it('a conflict is listed until a person resolves it with a note (a plain form, audited)', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { w } = await automatic({
      payout_conflict: 'Paystack reports the payout paid after the money was returned to the wallet',
      payout_conflict_at: 1,
    })
    const before = await jsonOf(await load(desk.loader, '/ops/payouts', jar))
    expect(before.attention.conflicts.map((x: { id: string }) => x.id)).toContain(w.id)
    const short = await submit(desk.action, '/ops/payouts', { intent: 'resolve', id: w.id, note: 'x' }, jar)
    expect(short.status).toBe(400)
    expect((await jsonOf(short)).message).toBe('Say in a few words what was done')
    const done = await submit(desk.action, '/ops/payouts', { intent: 'resolve', id: w.id, note: 'Recovered from the seller' }, jar)
    expect(done).toHaveRedirect('/ops/payouts')
    expect(await staffToastOf(done)).toMatchObject({ type: 'success', message: 'Conflict resolved' })
    const after = await jsonOf(await load(desk.loader, '/ops/payouts', jar))
    expect(after.attention.conflicts.map((x: { id: string }) => x.id)).not.toContain(w.id)
    const audited = await api.db.selectFrom('audit_log').select('action').where('target_id', '=', w.id).execute()
    expect(audited.map((a) => a.action)).toContain('withdrawal.payout_conflict_resolved')
  })

  it('a payout waiting for the transfer OTP is flagged with the OTP form; the form checks the OTP and answers a refusal beside the row', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const { w } = await automatic({ payout_state: 'otp', transfer_code: 'TRF_otp0123456789' })
    const page = await jsonOf(await load(desk.loader, '/ops/payouts', jar))
    expect(page.attention.otp.map((x: { id: string }) => x.id)).toContain(w.id)
    const bad = await submit(desk.action, '/ops/payouts', { intent: 'otp', id: w.id, otp: 'abc' }, jar)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).message).toBe('The OTP is 4–8 digits')
    // This api pays by hand: there is no Paystack to finalize with, and it says so.
    const refused = await submit(desk.action, '/ops/payouts', { intent: 'otp', id: w.id, otp: '123456' }, jar)
    expect(refused.status).toBe(409)
    expect(await jsonOf(refused)).toEqual({ id: w.id, message: 'This payout is not waiting for an OTP' })
  })
})
