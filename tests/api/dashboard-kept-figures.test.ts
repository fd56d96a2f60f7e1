import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { peopleDeskApi } from '#contract/ops/people'
import { dayBounds, localDay } from '../../api/lib/day'
import { addOrderEvent } from '../../api/models/orders'
import { auditBooks } from '../../api/services/ledger'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { ops, sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/**
 * The two figures the dashboard keeps instead of scanning (decision 050), on the suite's database
 * (SQLite or PostgreSQL): each wallet's sums of its entries, kept by the database whoever writes an
 * entry, and each order's first decision, from which the week of reviews is counted in SQL.
 */
const api = useSellingApi()

const board = async () => {
  const staff = await seedStaff(api, { role: 'admin' })
  const res = await api.get('/admin/dashboard', { headers: bearer(staff.token) })
  expect(res.body.code, res.text).toBe(Code.OK)
  return peopleDeskApi.dashboard.data.parse(res.body.data)
}

const walletOf = (userId: string) => api.db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()

describe('each wallet’s kept sums of its entries', () => {
  it('follow every ledger movement', async () => {
    const person = await walletUser(api, { balance: 5_000_000 })
    expect((await withdraw(api, person, 1_000_000)).body.code).toBe(Code.OK)
    const w = await walletOf(person.userId)
    const sums = await api.db
      .selectFrom('balance_logs')
      .where('user_id', '=', person.userId)
      .select((eb) => [eb.fn.sum<number>('amount').as('amount'), eb.fn.sum<number>('frozen_change').as('frozen')])
      .executeTakeFirstOrThrow()
    expect(Number(w.frozen)).toBeGreaterThan(0)
    expect([Number(w.entries_amount), Number(w.entries_frozen)]).toEqual([Number(sums.amount), Number(sums.frozen)])
    expect([Number(w.entries_amount), Number(w.entries_frozen)]).toEqual([Number(w.balance), Number(w.frozen)])
  })

  it('follow an entry written, changed or removed outside the ledger, so the dashboard sees the books off', async () => {
    const person = await walletUser(api, { balance: 40_000 })
    const balanced = (await board()).books!
    expect(balanced).toMatchObject({ balanced: true, mismatches: 0 })
    const id = `stray-${person.userId}`
    const stray = sql`INSERT INTO balance_logs (id, user_id, seq, type, amount, balance_after, frozen_change, frozen_after, ref_type, ref_id, note, idempotency_key, created_at)
      VALUES (${id}, ${person.userId}, 999, 'adjust', 5, 40005, 0, 0, NULL, NULL, NULL, ${id}, ${api.clock.now()})`
    await stray.execute(api.db)
    try {
      expect((await board()).books).toEqual({ balanced: false, wallets: balanced.wallets, mismatches: 1 })
      expect((await auditBooks(api.db)).map((r) => r.userId)).toEqual([person.userId])
      // Changed to nothing: the books balance again; changed to something else: off again.
      await sql`UPDATE balance_logs SET amount = 0 WHERE id = ${id}`.execute(api.db)
      expect((await board()).books).toEqual({ balanced: true, wallets: balanced.wallets, mismatches: 0 })
      await sql`UPDATE balance_logs SET frozen_change = 3 WHERE id = ${id}`.execute(api.db)
      expect((await board()).books).toEqual({ balanced: false, wallets: balanced.wallets, mismatches: 1 })
    } finally {
      await sql`DELETE FROM balance_logs WHERE id = ${id}`.execute(api.db)
    }
    expect((await board()).books).toEqual({ balanced: true, wallets: balanced.wallets, mismatches: 0 })
    const w = await walletOf(person.userId)
    expect([Number(w.entries_amount), Number(w.entries_frozen)]).toEqual([40_000, 0])
  })

  it('are themselves checked by the full audit (npm run ops -- books) against the entries', async () => {
    const person = await walletUser(api, { balance: 10_000 })
    expect(await auditBooks(api.db)).toEqual([])
    await sql`UPDATE wallets SET entries_amount = entries_amount + 1 WHERE user_id = ${person.userId}`.execute(api.db)
    try {
      expect(await auditBooks(api.db)).toEqual([{ userId: person.userId, balance: 10_000, frozen: 0, sumAmount: 10_000, sumFrozen: 0 }])
      expect((await board()).books).toMatchObject({ balanced: false, mismatches: 1 })
    } finally {
      await sql`UPDATE wallets SET entries_amount = entries_amount - 1 WHERE user_id = ${person.userId}`.execute(api.db)
    }
    expect(await auditBooks(api.db)).toEqual([])
  })
})

/** The week of reviews the way it was counted before decision 050: every decision into the api, medians of sorted lists. */
async function reviewDaysFromEvents() {
  const now = api.clock.now()
  const { timeZone } = api.deps.config.wallet
  const starts = [dayBounds(now, timeZone).start]
  for (let i = 1; i < 7; i++) starts.unshift(dayBounds(starts[0]! - 1, timeZone).start)
  const rows = await api.db
    .selectFrom('order_events')
    .innerJoin('orders', 'orders.id', 'order_events.order_id')
    .where('order_events.actor', '=', 'operator')
    .where('order_events.status', 'in', ['completed', 'proposed', 'rejected'])
    .groupBy(['orders.id', 'orders.created_at', 'orders.eta_minutes'])
    .select((eb) => ['orders.created_at as createdAt', 'orders.eta_minutes as eta', eb.fn.min<number>('order_events.at').as('decidedAt')])
    .execute()
  const median = (values: number[]) => {
    if (values.length === 0) return null
    const s = [...values].sort((a, b) => a - b)
    const mid = Math.floor(s.length / 2)
    return Math.round(s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2)
  }
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? Infinity
    const that = rows
      .map((r) => ({ createdAt: Number(r.createdAt), eta: Number(r.eta), decidedAt: Number(r.decidedAt) }))
      .filter((d) => d.decidedAt >= start && d.decidedAt < end)
    return {
      day: localDay(start, timeZone),
      reviewed: that.length,
      withinEta: that.filter((d) => d.decidedAt - d.createdAt <= d.eta * 60_000).length,
      medianMinutes: median(that.map((d) => Math.round((d.decidedAt - d.createdAt) / 60_000))),
      medianEtaMinutes: median(that.map((d) => d.eta)),
    }
  })
}

describe('the week of reviews counted in the database', () => {
  it('keeps an order’s first decision only, not a claim or a later decision', async () => {
    const seller = await seedUser(api, { email: newEmail('kept') })
    const order = await sold(api, seller.token)
    expect((await ops(api).claim(order.id)).body.code).toBe(Code.OK)
    const decidedAt = async () =>
      (await api.db.selectFrom('orders').select('decided_at').where('id', '=', order.id).executeTakeFirstOrThrow()).decided_at
    expect(await decidedAt()).toBeNull()
    api.clock.advance(7 * 60_000)
    expect((await ops(api).complete(order.id)).body.code).toBe(Code.OK)
    const first = api.clock.now()
    expect(Number(await decidedAt())).toBe(first)
    await addOrderEvent(api.db, { orderId: order.id, status: 'rejected', actor: 'operator', note: null }, first + 60_000)
    expect(Number(await decidedAt())).toBe(first)
  })

  it('answers what the sorted lists answered: counts, within ETA and medians of odd and even days', async () => {
    const seller = await seedUser(api, { email: newEmail('week') })
    const decideAfter = async (waits: number[]) => {
      const orders = []
      for (let i = 0; i < waits.length; i++) orders.push(await sold(api, seller.token))
      let waited = 0
      for (const [i, wait] of waits.entries()) {
        api.clock.advance((wait - waited) * 60_000 + 20_000 * i)
        waited = wait
        expect((await ops(api).claim(orders[i]!.id)).body.code).toBe(Code.OK)
        expect((await ops(api).complete(orders[i]!.id)).body.code).toBe(Code.OK)
      }
    }
    await decideAfter([3, 10, 24, 50])
    expect((await board()).reviewDays).toEqual(await reviewDaysFromEvents())
    await decideAfter([1, 2, 9])
    expect((await board()).reviewDays).toEqual(await reviewDaysFromEvents())
    api.clock.advance(26 * 3_600_000)
    await decideAfter([5, 16])
    const days = (await board()).reviewDays!
    expect(days).toEqual(await reviewDaysFromEvents())
    expect(days.filter((d) => d.reviewed > 0).length).toBeGreaterThanOrEqual(2)
  })
})
