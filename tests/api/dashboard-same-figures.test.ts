import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { peopleDeskApi } from '#contract/ops/people'
import { moveToTimeOfDay, seedUser } from '../support/api'
import { dashboardBefore } from '../support/dashboard-before'
import { newEmail } from '../support/kit'
import { ops, sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/**
 * The dashboard in two statements compiled once (decision 056) answers what the statement a figure
 * answered before (tests/support/dashboard-before.ts), on the suite's database (SQLite or
 * PostgreSQL): books of a few hundred orders, withdrawals and entries over ten days, waiting and
 * late, decided with ties and within a minute, paid and paid then reversed, for every role, and
 * again the next day.
 */
const api = useSellingApi()
const HOUR = 3_600_000
const DAY = 24 * HOUR

const boardAs = async (role: 'reviewer' | 'payouts' | 'admin') => {
  const staff = await seedStaff(api, { role })
  const res = await api.get('/admin/dashboard', { headers: bearer(staff.token) })
  expect(res.body.code, res.text).toBe(Code.OK)
  return peopleDeskApi.dashboard.data.parse(res.body.data)
}
const before = (role: 'reviewer' | 'payouts' | 'admin') =>
  dashboardBefore(api.db, {
    now: api.clock.now(),
    timeZone: api.deps.config.wallet.timeZone,
    currency: api.deps.config.wallet.currency,
    role,
  })

/** A repeatable stream of numbers in [0, n). */
function numbers(seed: number) {
  let x = seed
  return (n: number) => ((x = (x * 1_103_515_245 + 12_345) >>> 0), x % n)
}

/** Copies of one order, one withdrawal, their events and one entry, spread over the last ten days. */
async function seedBooks(count: number, seed: number) {
  const pick = numbers(seed)
  const now = api.clock.now()
  const order = await api.db.selectFrom('orders').selectAll().where('decided_at', 'is not', null).executeTakeFirstOrThrow()
  const withdrawal = await api.db.selectFrom('withdrawals').selectAll().executeTakeFirstOrThrow()
  const event = await api.db.selectFrom('withdrawal_events').selectAll().executeTakeFirstOrThrow()
  const entry = await api.db.selectFrom('balance_logs').selectAll().executeTakeFirstOrThrow()
  const { maxSeq } = await api.db
    .selectFrom('balance_logs')
    .where('user_id', '=', entry.user_id)
    .select((eb) => eb.fn.max<number>('seq').as('maxSeq'))
    .executeTakeFirstOrThrow()
  const statuses = ['pending', 'reviewing', 'completed', 'rejected', 'proposed', 'completed'] as const
  const tag = `${seed}-${now}`
  const orders = []
  const withdrawals = []
  const events = []
  const entries = []
  for (let i = 0; i < count; i++) {
    const at = now - pick(10 * DAY)
    const status = statuses[pick(statuses.length)]!
    const open = status === 'pending' || status === 'reviewing'
    // Waits of whole minutes (ties) and of seconds (under a minute, on the half minute), some into the next days.
    const wait = [pick(90) * 60_000, pick(120) * 1_000, 30_000, pick(3 * DAY)][pick(4)]!
    orders.push({
      ...order,
      id: `same-o-${tag}-${i}`,
      order_no: `S${seed}${String(i).padStart(6, '0')}${now % 100_000}`,
      request_id: `same-o-${tag}-${i}`,
      proof_image_id: null,
      status,
      eta_minutes: [15, 30, 60, 120][pick(4)]!,
      created_at: at,
      updated_at: at,
      decided_at: open ? null : Math.min(at + wait, now),
    })
    const wstatus = ['pending', 'processing', 'success', 'failed', 'success'][pick(5)]!
    const wid = `same-w-${tag}-${i}`
    withdrawals.push({
      ...withdrawal,
      id: wid,
      request_id: wid,
      reference: null,
      payout_reference: null,
      transfer_code: null,
      status: wstatus,
      amount: 10_000 + pick(500) * 100,
      fee: pick(3) * 50,
      expected_by: at + pick(2 * DAY),
      created_at: at,
      updated_at: at,
    })
    // A success event for the paid ones, and for some failed ones (paid, then reversed).
    if (wstatus === 'success' || (wstatus === 'failed' && pick(2) === 0))
      events.push({ ...event, id: `same-e-${tag}-${i}`, withdrawal_id: wid, status: 'success', at: Math.min(at + pick(DAY), now) })
    entries.push({
      ...entry,
      id: `same-l-${tag}-${i}`,
      seq: Number(maxSeq) + 1 + i,
      ref_type: pick(3) === 0 ? 'withdrawal' : 'order',
      amount: pick(4) === 0 ? -(100 + pick(1_000)) : 100 + pick(10_000),
      idempotency_key: `same-l-${tag}-${i}`,
      created_at: now - pick(3 * DAY),
    })
  }
  for (const [table, rows] of [
    ['orders', orders],
    ['withdrawals', withdrawals],
    ['withdrawal_events', events],
    ['balance_logs', entries],
  ] as const)
    for (let i = 0; i < rows.length; i += 50)
      await api.db
        .insertInto(table)
        .values(rows.slice(i, i + 50))
        .execute()
}

describe('GET /admin/dashboard on seeded books', () => {
  it('answers every figure the statement-a-figure dashboard answered, for every role, today and the next day', async () => {
    // From noon, today holds half a day of the books' reviews whenever the suite runs (they are counted for every day of the week).
    moveToTimeOfDay(api, 12)
    // One order decided and one withdrawal made through the api: the rows the books are copied from.
    const seller = await seedUser(api, { email: newEmail('same') })
    const order = await sold(api, seller.token)
    expect((await ops(api).claim(order.id)).body.code).toBe(Code.OK)
    expect((await ops(api).complete(order.id)).body.code).toBe(Code.OK)
    const payer = await walletUser(api, { balance: 5_000_000 })
    expect((await withdraw(api, payer, 1_000_000)).body.code).toBe(Code.OK)

    await seedBooks(400, 7)
    for (const role of ['admin', 'reviewer', 'payouts'] as const) expect(await boardAs(role), role).toEqual(await before(role))
    const board = await boardAs('admin')
    // The books hold what the comparison needs: waiting and late, several days of reviews, paid today, entries off the wallets.
    expect(board.orders!.late).toBeGreaterThan(0)
    expect(board.withdrawals!.late).toBeGreaterThan(0)
    expect(board.reviewDays!.filter((d) => d.reviewed > 1).length).toBe(7)
    expect(new Set(board.reviewDays!.map((d) => d.reviewed % 2)).size).toBe(2)
    expect(board.today.withdrawalsPaid).toBeGreaterThan(0)
    expect(board.today.credited).toBeGreaterThan(0)
    expect(board.books!.mismatches).toBeGreaterThan(0)

    // The next day (the week moves on by a day) with more books.
    api.clock.advance(DAY + 5 * HOUR)
    await seedBooks(150, 11)
    for (const role of ['admin', 'reviewer', 'payouts'] as const) expect(await boardAs(role), role).toEqual(await before(role))
  })

  it('answers empty days and no books the same', async () => {
    api.clock.advance(30 * DAY)
    for (const role of ['admin', 'reviewer', 'payouts'] as const) expect(await boardAs(role), role).toEqual(await before(role))
    expect((await boardAs('reviewer')).reviewDays!.every((d) => d.reviewed === 0 && d.medianMinutes === null)).toBe(true)
  })
})
