import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { walletApi } from '#contract/wallet'
import { newCode, ops, sold, useSellingApi } from '../support/selling'
import { admin, PIN, walletInfo, walletUser, withdrawRetryingBusy, type WalletUser } from '../support/wallet'

/** Auto-withdrawal (§7): opted in with the PIN, each order's credit goes on to the default bank account, or stays with a reason. */
const api = useSellingApi()

const setAuto = (u: WalletUser, body: Record<string, unknown>) => api.post('/v1/wallet/autoWithdraw', body, { token: u.token })
const overview = async (u: WalletUser) =>
  walletApi.overview.data.parse((await api.get('/v1/wallet/overview?pageNum=1&pageSize=5', { token: u.token })).body.data)
const notifications = async (u: WalletUser) =>
  api.db.selectFrom('notifications').select(['title', 'content', 'ref_id']).where('user_id', '=', u.userId).orderBy('created_at').execute()
const autoOf = (orderId: string) => api.db.selectFrom('withdrawals').selectAll().where('request_id', '=', `auto-${orderId}`).execute()

/** A sale under AUTO_PAYOUT_MAX. */
const smallSale = (u: WalletUser) => sold(api, u.token, { cards: [{ faceValue: 5_000, cardCodes: [newCode()] }] })

/** A sale (made now, or given) completed by a reviewer: its money is credited. */
async function completed(u: WalletUser, made?: Awaited<ReturnType<typeof smallSale>>) {
  const order = made ?? (await smallSale(u))
  expect(order.quotedPayout).toBeLessThanOrEqual(100_000_00)
  expect((await ops(api).claim(order.id)).body.code).toBe(Code.OK)
  const done = await ops(api).complete(order.id)
  expect(done.body.code, done.text).toBe(Code.OK)
  return order
}

describe('auto-withdrawal', () => {
  it('turns on only with the right PIN (kept nowhere), shows where it goes, and turns off without one', async () => {
    const u = await walletUser(api)
    expect((await overview(u)).autoWithdrawal).toMatchObject({ enabled: false, bankCard: { bankName: 'Guaranty Trust Bank' } })
    expect((await setAuto(u, { enabled: true })).status).toBe(400)
    expect((await setAuto(u, { enabled: true, pin: '999999' })).body.code).toBe(Refusals.PIN_WRONG.code)
    expect((await overview(u)).autoWithdrawal!.enabled).toBe(false)
    const on = await setAuto(u, { enabled: true, pin: PIN })
    expect(on.body.code, on.text).toBe(Code.OK)
    expect(on.body.data).toMatchObject({ enabled: true, maxAmount: api.deps.config.payouts.autoPayoutMax })
    const rows = await api.db.selectFrom('auto_withdrawals').selectAll().where('user_id', '=', u.userId).execute()
    expect(rows).toHaveLength(1)
    expect(Object.keys(rows[0]).sort()).toEqual(['enabled_at', 'user_id'])
    expect(JSON.stringify(rows)).not.toContain(PIN)
    const off = await setAuto(u, { enabled: false })
    expect(off.body.data).toMatchObject({ enabled: false })
    expect(await api.db.selectFrom('auto_withdrawals').selectAll().where('user_id', '=', u.userId).execute()).toEqual([])
  })

  it('no bank account: refused at opt-in', async () => {
    const u = await walletUser(api, { card: false })
    const res = await setAuto(u, { enabled: true, pin: PIN })
    expect(res.body.code).toBe(Refusals.BANK_CARD_NOT_FOUND.code)
    expect(res.body.msg).toContain('Add a bank account first')
  })

  it('a completed order’s credit becomes one withdrawal to the default account, held as usual; the notification names bank and last four', async () => {
    const u = await walletUser(api)
    expect((await setAuto(u, { enabled: true, pin: PIN })).body.code).toBe(Code.OK)
    const order = await completed(u)
    const [w, ...more] = await autoOf(order.id)
    expect(more).toEqual([])
    expect(w).toMatchObject({ user_id: u.userId, bank_card_id: u.card!.id, amount: order.quotedPayout, status: 'pending' })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 0, frozen: order.quotedPayout })
    const told = (await notifications(u)).find((n) => n.title === 'Sent to your bank automatically')!
    expect(told.ref_id).toBe(w.id)
    expect(told.content).toContain(`from order ${order.orderNo} is on its way to Guaranty Trust Bank ${u.card!.maskedNumber}`)
    // Completing again (answered as before) sends nothing more: one order, one withdrawal.
    await ops(api).complete(order.id)
    expect(await autoOf(order.id)).toHaveLength(1)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 0, frozen: order.quotedPayout })
  })

  it('over AUTO_PAYOUT_MAX, or over today’s maximum: the money stays in the wallet and the notification says why; off: nothing happens', async () => {
    const u = await walletUser(api)
    expect((await setAuto(u, { enabled: true, pin: PIN })).body.code).toBe(Code.OK)
    const payouts = api.deps.config.payouts
    const max = payouts.autoPayoutMax
    const sale = await smallSale(u)
    payouts.autoPayoutMax = 1_000
    let order
    try {
      order = await completed(u, sale)
    } finally {
      payouts.autoPayoutMax = max
    }
    expect(await autoOf(order.id)).toEqual([])
    expect((await walletInfo(api, u.token)).balance).toBe(order.quotedPayout)
    const kept = (await notifications(u)).find((n) => n.title === 'Kept in your wallet' && n.ref_id === order.id)!
    expect(kept.content).toContain('automatic withdrawals send at most ₦10.00 at a time')

    const wallet = api.deps.config.wallet
    const daily = wallet.withdrawDailyMax
    wallet.withdrawDailyMax = wallet.withdrawMin
    let second
    try {
      second = await completed(u)
    } finally {
      wallet.withdrawDailyMax = daily
    }
    expect(await autoOf(second.id)).toEqual([])
    const why = (await notifications(u)).find((n) => n.title === 'Kept in your wallet' && n.ref_id === second.id)!
    expect(why.content).toMatch(/was not sent to your bank automatically: .*(today|maximum)/)
    expect((await walletInfo(api, u.token)).balance).toBe(order.quotedPayout + second.quotedPayout)

    expect((await setAuto(u, { enabled: false })).body.code).toBe(Code.OK)
    const third = await completed(u)
    expect(await autoOf(third.id)).toEqual([])
    expect((await notifications(u)).filter((n) => n.ref_id === third.id && n.title === 'Kept in your wallet')).toEqual([])
  })

  it('the bank account removed after opting in: the credit stays, and the notification says there is none', async () => {
    const u = await walletUser(api)
    expect((await setAuto(u, { enabled: true, pin: PIN })).body.code).toBe(Code.OK)
    await api.db.updateTable('bank_cards').set({ deleted_at: api.clock.now() }).where('user_id', '=', u.userId).execute()
    const order = await completed(u)
    expect(await autoOf(order.id)).toEqual([])
    expect((await notifications(u)).find((n) => n.ref_id === order.id && n.title === 'Kept in your wallet')!.content).toContain(
      'you have no bank account saved',
    )
  })

  it('a completion racing the person’s own withdrawals: every hold is covered, nothing below zero, the books balance', async () => {
    const u = await walletUser(api, { balance: 200_000 })
    expect((await setAuto(u, { enabled: true, pin: PIN })).body.code).toBe(Code.OK)
    const sale = await smallSale(u)
    expect((await ops(api).claim(sale.id)).body.code).toBe(Code.OK)
    const [done, ...mine] = await Promise.all([
      ops(api).complete(sale.id),
      ...Array.from({ length: 4 }, () => withdrawRetryingBusy(api, u, 150_000)),
    ])
    expect(done.body.code, done.text).toBe(Code.OK)
    const made = await api.db.selectFrom('withdrawals').select(['amount', 'request_id']).where('user_id', '=', u.userId).execute()
    const held = made.reduce((sum, w) => sum + Number(w.amount), 0)
    const info = await walletInfo(api, u.token)
    expect(info.balance).toBeGreaterThanOrEqual(0)
    expect(info.frozen).toBe(held)
    expect(info.balance + info.frozen).toBe(200_000 + sale.quotedPayout)
    expect(mine.filter((m) => m.body.code === Code.OK).length).toBe(made.filter((w) => !w.request_id.startsWith('auto-')).length)
    const books = await admin(api).get<{ mismatches: unknown[] }>('/admin/books')
    expect(books.body.data.mismatches).toEqual([])
  })
})
