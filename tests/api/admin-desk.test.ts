import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { opsMoneyApi } from '#contract/ops/money'
import { peopleDeskApi } from '#contract/ops/people'
import { DASHBOARD_SHOWN_AGAIN_MS } from '../../api/services/ops/people'
import { moveToTimeOfDay, seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { ops, sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/** The console's dashboard record and the admin desk's reads of a person, on the suite's database (SQLite or PostgreSQL). */
const api = useSellingApi()

const dashboardAs = async (role: 'reviewer' | 'payouts' | 'admin') => {
  const staff = await seedStaff(api, { role })
  const res = await api.get('/admin/dashboard', { headers: bearer(staff.token) })
  expect(res.body.code, res.text).toBe(Code.OK)
  return peopleDeskApi.dashboard.data.parse(res.body.data)
}

describe('GET /admin/dashboard', () => {
  it('counts what waits and what is late, the day’s reviews against ETA, today’s volume and the books', async () => {
    // The clock moves 16 minutes below: from noon, both orders are today's whenever the suite runs.
    moveToTimeOfDay(api, 12)
    const seller = await seedUser(api, { email: newEmail('seller') })
    const before = await dashboardAs('admin')
    const early = await sold(api, seller.token)
    // Past apple's ETA (15 minutes) for the first order, not for the second.
    api.clock.advance(16 * 60_000)
    await sold(api, seller.token)
    const payer = await walletUser(api, { balance: 5_000_000 })
    const w = await withdraw(api, payer, 1_000_000)
    expect(w.body.code, w.text).toBe(Code.OK)

    const board = await dashboardAs('admin')
    expect(board.orders).toMatchObject({ waiting: before.orders!.waiting + 2, late: before.orders!.late + 1 })
    expect(board.orders!.oldestAt).toBeLessThanOrEqual(early.createdAt)
    expect(board.withdrawals).toMatchObject({ waiting: before.withdrawals!.waiting + 1, late: before.withdrawals!.late })
    expect(board.today.orders).toBe(before.today.orders! + 2)
    expect(board.books).toMatchObject({ balanced: true, mismatches: 0 })
    expect(board.reviewDays).toHaveLength(7)
    expect(board.reviewDays!.at(-1)!.day).toBe(board.today.day)

    // The late one is decided now: one review today, not within its ETA; its payout credited today.
    expect((await ops(api).claim(early.id)).body.code).toBe(Code.OK)
    const done = await ops(api).complete(early.id)
    expect(done.body.code, done.text).toBe(Code.OK)
    const after = await dashboardAs('admin')
    const today = after.reviewDays!.at(-1)!
    const todayBefore = board.reviewDays!.at(-1)!
    expect(today.reviewed).toBe(todayBefore.reviewed + 1)
    expect(today.withinEta).toBe(todayBefore.withinEta)
    expect(today.medianMinutes).toBeGreaterThanOrEqual(16)
    expect(after.orders!.waiting).toBe(board.orders!.waiting - 1)
    expect(after.today.credited).toBe(board.today.credited! + early.quotedPayout)
  })

  it('counts the wallets whose balances differ from their entries, and every wallet', async () => {
    const a = await walletUser(api, { balance: 70_000 })
    const b = await walletUser(api, { balance: 30_000 })
    const wallets = Number(
      (
        await api.db
          .selectFrom('wallets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    expect((await dashboardAs('admin')).books).toEqual({ balanced: true, wallets, mismatches: 0 })
    // A balance and a hold that no entry explains: each wallet counted once, whichever column is off.
    await api.db.updateTable('wallets').set({ balance: 70_001 }).where('user_id', '=', a.userId).execute()
    await api.db.updateTable('wallets').set({ frozen: 5 }).where('user_id', '=', b.userId).execute()
    try {
      expect((await dashboardAs('admin')).books).toEqual({ balanced: false, wallets, mismatches: 2 })
    } finally {
      await api.db.updateTable('wallets').set({ balance: 70_000 }).where('user_id', '=', a.userId).execute()
      await api.db.updateTable('wallets').set({ frozen: 0 }).where('user_id', '=', b.userId).execute()
    }
    expect((await dashboardAs('admin')).books).toEqual({ balanced: true, wallets, mismatches: 0 })
  })

  it('gives the same answer again while nothing was written, for at most a second; a write reads the figures again at once', async () => {
    const staff = await seedStaff(api, { role: 'admin' })
    const ask = async () => {
      const from = api.queryCount()
      const res = await api.get('/admin/dashboard', { headers: bearer(staff.token) })
      expect(res.body.code, res.text).toBe(Code.OK)
      const reads = api.queries.slice(from).filter((q) => /"orders"/.test(q)).length
      return { board: peopleDeskApi.dashboard.data.parse(res.body.data), reads }
    }
    const first = await ask()
    expect(first.reads).toBeGreaterThan(0)
    // Asked again: the staff session is read, the figures are not.
    const again = await ask()
    expect(again.reads).toBe(0)
    expect(again.board).toEqual(first.board)
    // A write through this api (here a wallet's balance no entry explains): read again at once.
    const w = await walletUser(api, { balance: 10_000 })
    await api.db.updateTable('wallets').set({ balance: 10_001 }).where('user_id', '=', w.userId).execute()
    try {
      const written = await ask()
      expect(written.reads).toBeGreaterThan(0)
      expect(written.board.books).toMatchObject({ balanced: false, mismatches: 1 })
    } finally {
      await api.db.updateTable('wallets').set({ balance: 10_000 }).where('user_id', '=', w.userId).execute()
    }
    const read = await ask()
    expect(read.board.books).toMatchObject({ balanced: true, mismatches: 0 })
    expect((await ask()).reads).toBe(0)
    // Nothing written, but a second gone by: read again (what time alone changes shows that late at most).
    api.clock.advance(DASHBOARD_SHOWN_AGAIN_MS)
    expect((await ask()).reads).toBeGreaterThan(0)
  })

  it('starts today at midnight in the wallet’s time zone, not at midnight UTC', async () => {
    // Five minutes before the coming midnight there (Lagos' 23:55 is 22:55 UTC, the same UTC day as its 00:05).
    moveToTimeOfDay(api, 23, 55)
    const seller = await seedUser(api, { email: newEmail('midnight') })
    const evening = await dashboardAs('admin')
    await sold(api, seller.token)
    const late = await dashboardAs('admin')
    expect(late.today.orders).toBe(evening.today.orders! + 1)

    api.clock.advance(10 * 60_000)
    const morning = await dashboardAs('admin')
    expect(morning.today.day).not.toBe(late.today.day)
    expect(morning.today.orders).toBe(0)
    expect(morning.reviewDays!.at(-1)!.day).toBe(morning.today.day)
    expect(morning.reviewDays!.at(-2)!.day).toBe(late.today.day)
    await sold(api, seller.token)
    expect((await dashboardAs('admin')).today.orders).toBe(1)
  })

  it('answers each role only its parts', async () => {
    const reviewer = await dashboardAs('reviewer')
    expect(reviewer.orders).not.toBeNull()
    expect(reviewer.reviewDays).not.toBeNull()
    expect(reviewer.withdrawals).toBeNull()
    expect(reviewer.today.paidOut).toBeNull()
    expect(reviewer.books).toBeNull()
    const payouts = await dashboardAs('payouts')
    expect(payouts.orders).toBeNull()
    expect(payouts.reviewDays).toBeNull()
    expect(payouts.withdrawals).not.toBeNull()
    expect(payouts.today.paidOut).not.toBeNull()
    expect(payouts.books).toBeNull()
  })

  it('is for staff only', async () => {
    const seller = await seedUser(api, { email: newEmail('nosy') })
    expect((await api.get('/admin/dashboard', { token: seller.token })).status).toBe(401)
    expect((await api.get('/admin/dashboard')).status).toBe(401)
  })
})

describe('GET /admin/user and /admin/user/ledger', () => {
  it('shows an admin the whole person without a secret; a reviewer is refused', async () => {
    const person = await walletUser(api, { balance: 250_000 })
    await sold(api, person.token)
    const admin = await seedStaff(api, { role: 'admin' })
    const res = await api.get(`/admin/user?id=${person.userId}`, { headers: bearer(admin.token) })
    expect(res.body.code, res.text).toBe(Code.OK)
    const data = opsMoneyApi.user.data.parse(res.body.data)
    expect(data.bankAccounts).toHaveLength(1)
    expect(data.bankAccounts[0]!.maskedNumber).toBe(person.card!.maskedNumber)
    expect(data.sessions.some((s) => s.live)).toBe(true)
    expect(data.orders).toHaveLength(1)
    expect(res.text).not.toContain(person.token)
    expect(res.text).not.toMatch(/hash|pin/i)

    const ledger = await api.get(`/admin/user/ledger?userId=${person.userId}&pageSize=1`, { headers: bearer(admin.token) })
    const page = peopleDeskApi.userLedger.data.parse(ledger.body.data)
    expect(page).toMatchObject({ total: 1, pageSize: 1 })
    expect(page.list[0]).toMatchObject({ type: 'adjustment', amount: 250_000 })

    const reviewer = await seedStaff(api, { role: 'reviewer' })
    expect((await api.get(`/admin/user/ledger?userId=${person.userId}`, { headers: bearer(reviewer.token) })).status).toBe(403)
    expect((await api.get(`/admin/user?id=${person.userId}`, { headers: bearer(reviewer.token) })).status).toBe(403)
  })
})
