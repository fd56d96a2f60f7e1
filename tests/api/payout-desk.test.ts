import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { payoutDeskApi } from '#contract/ops/payouts'
import { peopleDeskApi } from '#contract/ops/people'
import { Refusals } from '#contract/refusals'
import { walletApi } from '#contract/wallet'
import type { Withdrawal } from '#contract/withdrawals'
import { useTestApi } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'
import { admin, TEST_ADMIN_TOKEN, walletUser, withdraw, type WalletUser } from '../support/wallet'

/** Paying by hand (§5) and the payouts' speed on Withdraw (§7), against the real api on SQLite or PostgreSQL. */
const api = useTestApi()

const fullNumber = async (u: WalletUser) =>
  (await api.db.selectFrom('bank_cards').select('account_number').where('id', '=', u.card!.id).executeTakeFirstOrThrow()).account_number

const pay = async (id: string) => {
  expect((await admin(api).post('/admin/withdraw/update', { id, status: 'processing' })).body.code).toBe(Code.OK)
  const paid = await admin(api).post('/admin/withdraw/update', { id, status: 'success', reference: `NIP-${id.slice(0, 8)}` })
  expect(paid.body.code, paid.text).toBe(Code.OK)
}

describe('Withdraw’s payout speed (/v1/wallet/withdrawForm)', () => {
  const speedOf = async (token: string) => {
    const res = await api.get('/v1/wallet/withdrawForm', { token })
    expect(res.body.code, res.text).toBe(Code.OK)
    return walletApi.withdrawForm.data.parse(res.body.data).payoutSpeed
  }

  it('says nothing with fewer than 20 paid in the last 7 days, then the median and 90th percentile from request to paid', async () => {
    const u = await walletUser(api, { balance: 10_000_000 })
    expect(await speedOf(u.token)).toEqual({ days: 7, paid: 0, medianMinutes: null, p90Minutes: null })

    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await withdraw(api, u, 100_000)).body.data.id)
    // The i-th is paid i minutes after it was asked (the last with the 19th); one short of 20 shows nothing yet.
    for (const id of ids.slice(0, 19)) {
      api.clock.advance(60_000)
      await pay(id)
    }
    expect(await speedOf(u.token)).toEqual({ days: 7, paid: 19, medianMinutes: null, p90Minutes: null })
    await pay(ids[19])
    // The figure is kept a minute: a new one after that.
    expect(await speedOf(u.token)).toMatchObject({ paid: 19 })
    api.clock.advance(60_000)
    expect(await speedOf(u.token)).toEqual({ days: 7, paid: 20, medianMinutes: 10, p90Minutes: 18 })
    // A week later they are out of the window.
    api.clock.advance(7 * 86_400_000)
    expect(await speedOf(u.token)).toMatchObject({ paid: 0, medianMinutes: null })
  })
})

describe('POST /admin/withdraw/reveal', () => {
  it('answers the payouts role the full account number, bank, holder and the amount to send (amount less fee), audited without the number', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 300_000)).body.data
    const staff = await seedStaff(api, { role: 'payouts' })
    const logsBefore = api.logs.length
    const res = await api.post('/admin/withdraw/reveal', { id: w.id }, { headers: bearer(staff.token) })
    expect(res.body.code, res.text).toBe(Code.OK)
    const account = payoutDeskApi.revealAccount.data.parse(res.body.data)
    const number = await fullNumber(u)
    expect(account).toEqual({
      withdrawalId: w.id,
      bankName: 'Guaranty Trust Bank',
      bankCode: '058',
      accountName: 'Ada Obi',
      accountNumber: number,
      amountToSend: 300_000 - api.deps.config.wallet.withdrawFee,
      currency: 'NGN',
    })
    expect(res.headers.get('cache-control')).toBe('no-store')

    const rows = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'withdrawal.reveal_account')
      .where('target_id', '=', w.id)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ actor: `staff:${staff.email}`, target_type: 'withdrawal' })
    expect(JSON.stringify(rows[0])).not.toContain(number)
    // Never in the log.
    expect(api.logs.slice(logsBefore).join('\n')).not.toContain(number)

    // Each reveal is its own audit entry; an admin may too.
    const boss = await seedStaff(api, { role: 'admin' })
    expect((await api.post('/admin/withdraw/reveal', { id: w.id }, { headers: bearer(boss.token) })).body.code).toBe(Code.OK)
    const count = await api.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'withdrawal.reveal_account')
      .where('target_id', '=', w.id)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(2)
  })

  it('refuses a reviewer, the ADMIN_TOKEN, a customer and an unknown withdrawal; none of them is audited', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 200_000)).body.data
    const number = await fullNumber(u)
    const reviewer = await seedStaff(api, { role: 'reviewer' })
    for (const headers of [bearer(reviewer.token), bearer(TEST_ADMIN_TOKEN)]) {
      const res = await api.post('/admin/withdraw/reveal', { id: w.id }, { headers })
      expect(res.status).toBe(403)
      expect(res.text).not.toContain(number)
    }
    const customer = await api.post('/admin/withdraw/reveal', { id: w.id }, { token: u.token })
    expect([401, 403]).toContain(customer.status)
    expect(customer.text).not.toContain(number)
    const staff = await seedStaff(api, { role: 'payouts' })
    const unknown = await api.post('/admin/withdraw/reveal', { id: 'no-such-withdrawal' }, { headers: bearer(staff.token) })
    expect(unknown.body.code).toBe(Refusals.WITHDRAWAL_NOT_FOUND.code)
    const audited = await api.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'withdrawal.reveal_account')
      .where('target_id', '=', w.id)
      .execute()
    expect(audited).toEqual([])
  })
})

describe('the amount to send is one figure', () => {
  it('desk list, reveal and the dashboard’s "paid out" all count the amount less the fee, as the seller’s receipt does', async () => {
    const fee = api.deps.config.wallet.withdrawFee
    const staff = await seedStaff(api, { role: 'payouts' })
    const board = async () =>
      peopleDeskApi.dashboard.data.parse((await api.get('/admin/dashboard', { headers: bearer(staff.token) })).body.data)
    const before = await board()
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 400_000)).body.data
    const receipt = (await api.get<Withdrawal>(`/v1/withdraw/detail?id=${w.id}`, { token: u.token })).body.data
    expect(receipt.received).toBe(400_000 - fee)
    const account = payoutDeskApi.revealAccount.data.parse(
      (await api.post('/admin/withdraw/reveal', { id: w.id }, { headers: bearer(staff.token) })).body.data,
    )
    expect(account.amountToSend).toBe(receipt.received)
    await pay(w.id)
    const after = await board()
    expect(after.today.paidOut! - before.today.paidOut!).toBe(400_000 - fee)
  })
})
