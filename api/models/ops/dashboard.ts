import { sql, type SqlBool } from 'kysely'
import type { Db } from '../../db/connect'
import { slottedQuery } from '../../db/fixed-query'

/**
 * The dashboard's figures in two statements, each built and compiled once (decision 056): the
 * glance (one row: what waits, today's volume, the books, each day's reviews counted) and the middle
 * waits and ETAs of each day's reviews (a row or two a day). Every range they read is an index that
 * carries the columns the figure needs (migration 0026).
 */

export const OPEN_ORDER_STATUSES = ['pending', 'reviewing'] as const
export const OPEN_WITHDRAWAL_STATUSES = ['pending', 'processing'] as const
/** The review charts' days: today and the six before it. */
export const REVIEW_DAYS = 7
const DAYS = Array.from({ length: REVIEW_DAYS }, (_, i) => i)

type DayIndex = `${number}`
/** What a staff member sees: 1 or 0 (a part not seen is not read: its statement part is false). */
type Sees = { orders: number; withdrawals: number; books: number }
type GlanceValues = Sees & { now: number; todayStart: number; todayEnd: number } & Record<`day${DayIndex}`, number>

const seen = (flag: number) => sql<SqlBool>`${flag} = 1`

const glanceQuery = slottedQuery((db: Db, v: GlanceValues) => {
  const waitingOrders = db
    .selectFrom('orders')
    .where(seen(v.orders))
    .where('status', 'in', OPEN_ORDER_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('ordersWaiting'),
      eb.fn.min<number>('created_at').as('ordersOldestAt'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb(eb('created_at', '+', eb('eta_minutes', '*', 60_000)), '<', v.now))
            .then(1)
            .else(0)
            .end(),
        )
        .as('ordersLate'),
    ])
  const waitingWithdrawals = db
    .selectFrom('withdrawals')
    .where(seen(v.withdrawals))
    .where('status', 'in', OPEN_WITHDRAWAL_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('withdrawalsWaiting'),
      eb.fn.min<number>('created_at').as('withdrawalsOldestAt'),
      eb.fn.sum<number>(eb.case().when('expected_by', '<', v.now).then(1).else(0).end()).as('withdrawalsLate'),
    ])
  const made = db
    .selectFrom('orders')
    .where(seen(v.orders))
    .where('created_at', '>=', v.todayStart)
    .where('created_at', '<', v.todayEnd)
    .select((eb) => eb.fn.countAll<number>().as('ordersMade'))
  // The payouts credited for orders completed today.
  const credited = db
    .selectFrom('balance_logs')
    .where(seen(v.orders))
    .where('ref_type', '=', 'order')
    .where('amount', '>', 0)
    .where('created_at', '>=', v.todayStart)
    .where('created_at', '<', v.todayEnd)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('credited'))
  // Withdrawals that became paid (success) today and are still paid; the banks received the amount less the fee.
  const paid = db
    .selectFrom('withdrawals')
    .where(seen(v.withdrawals))
    .where('status', '=', 'success')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('withdrawal_events')
        .select('withdrawal_id')
        .where('status', '=', 'success')
        .where('at', '>=', v.todayStart)
        .where('at', '<', v.todayEnd),
    )
    .select((eb) => [
      eb.fn.countAll<number>().as('withdrawalsPaid'),
      eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('fee'))), eb.lit(0)).as('paidOut'),
    ])
  // The check `auditBooks` makes, against the sums each wallet keeps of its entries (decision 050).
  const books = db
    .selectFrom('wallets')
    .where(seen(v.books))
    .select((eb) => [
      eb.fn.countAll<number>().as('wallets'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.or([eb('balance', '<>', eb.ref('entries_amount')), eb('frozen', '<>', eb.ref('entries_frozen'))]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('mismatches'),
    ])
  // Each day's reviews: orders first decided that day (the last day open-ended), and those within
  // their ETA; a range of the index a day, so each row is tested once.
  const reviewed = DAYS.map((i) =>
    db
      .selectFrom('orders')
      .where(seen(v.orders))
      .where('decided_at', '>=', v[`day${i}`])
      .$if(i + 1 < REVIEW_DAYS, (qb) => qb.where('decided_at', '<', v[`day${i + 1}`]))
      .select((eb) => [
        eb.fn.countAll<number>().as(`reviewed${i}`),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(eb(eb('decided_at', '-', eb.ref('created_at')), '<=', eb('eta_minutes', '*', 60_000)))
              .then(1)
              .else(0)
              .end(),
          )
          .as(`withinEta${i}`),
      ])
      .as(`r${i}`),
  )
  return db
    .selectFrom([
      waitingOrders.as('wo'),
      waitingWithdrawals.as('ww'),
      made.as('m'),
      credited.as('c'),
      paid.as('p'),
      books.as('b'),
      ...reviewed,
    ])
    .selectAll()
})

export type Waiting = { waiting: number; late: number; oldestAt: number | null }
export type DayCount = { start: number; end: number | null; reviewed: number; withinEta: number }
export type Glance = {
  orders: Waiting
  withdrawals: Waiting
  made: { orders: number; credited: number }
  paid: { withdrawalsPaid: number; paidOut: number }
  books: { wallets: number; mismatches: number }
  days: DayCount[]
}

const num = (v: unknown) => Number(v ?? 0)
const orNull = (v: unknown) => (v === null || v === undefined ? null : Number(v))

/**
 * Every one-row figure of the dashboard in one statement; `sees` says which parts the staff member
 * sees (the others are not read and answer zeros). `starts`: the REVIEW_DAYS local day starts,
 * oldest first.
 */
export async function glance(db: Db, sees: { orders: boolean; withdrawals: boolean; books: boolean }, at: GlanceAt): Promise<Glance> {
  const values = {
    orders: Number(sees.orders),
    withdrawals: Number(sees.withdrawals),
    books: Number(sees.books),
    now: at.now,
    todayStart: at.today.start,
    todayEnd: at.today.end,
    ...Object.fromEntries(at.starts.map((start, i) => [`day${i}`, start])),
  } as GlanceValues
  const [row] = (await glanceQuery(db, values)) as Record<string, unknown>[]
  const r = row ?? {}
  return {
    orders: { waiting: num(r.ordersWaiting), late: num(r.ordersLate), oldestAt: orNull(r.ordersOldestAt) },
    withdrawals: { waiting: num(r.withdrawalsWaiting), late: num(r.withdrawalsLate), oldestAt: orNull(r.withdrawalsOldestAt) },
    made: { orders: num(r.ordersMade), credited: num(r.credited) },
    paid: { withdrawalsPaid: num(r.withdrawalsPaid), paidOut: num(r.paidOut) },
    books: { wallets: num(r.wallets), mismatches: num(r.mismatches) },
    days: at.starts.map((start, i) => ({
      start,
      end: at.starts[i + 1] ?? null,
      reviewed: num(r[`reviewed${i}`]),
      withinEta: num(r[`withinEta${i}`]),
    })),
  }
}
export type GlanceAt = { now: number; today: { start: number; end: number }; starts: readonly number[] }

/** A day's middle one or two values of a measure: equal when the day's count is odd; null without reviews. */
export type Middle = { low: number | null; high: number | null }
export type DayMiddles = { waited: Middle; eta: Middle }

type MiddleValues = Record<`${'from' | 'to' | 'take' | 'skip'}${DayIndex}`, number>
// The measures whose middles a day shows: the wait from order to decision (ms), and the ETA promised (minutes).
const MEASURES = ['waited', 'eta'] as const
/** No moment is this late: the last day's range is open-ended. */
const NEVER = Number.MAX_SAFE_INTEGER

const middlesQuery = slottedQuery((db: Db, v: MiddleValues) => {
  const part = (i: number, m: number) =>
    db
      .selectFrom((qb) =>
        qb
          .selectFrom('orders')
          .where('decided_at', '>=', v[`from${i}`])
          .where('decided_at', '<', v[`to${i}`])
          .select((eb) => [
            // A literal, so the part is one number: its day and measure.
            eb.lit(i * MEASURES.length + m).as('part'),
            (MEASURES[m] === 'waited' ? eb('decided_at', '-', eb.ref('created_at')) : eb.ref('eta_minutes')).as('value'),
          ])
          .orderBy('value')
          .limit(v[`take${i}`])
          .offset(v[`skip${i}`])
          .as('middle'),
      )
      .selectAll()
  const parts = DAYS.flatMap((i) => MEASURES.map((_, m) => part(i, m)))
  return parts.slice(1).reduce((all, p) => all.unionAll(p), parts[0]!)
})

/**
 * The middle row(s) of each day's waits and of its ETAs, sorted in the database: a day of n
 * reviews reads its (n + 1)/2-th value, and the next one too when n is even. The counts are the
 * glance's.
 */
export async function dayMiddles(db: Db, days: readonly DayCount[]): Promise<DayMiddles[]> {
  const values = Object.fromEntries(
    days.flatMap((d, i) => [
      [`from${i}`, d.start],
      [`to${i}`, d.end ?? NEVER],
      [`take${i}`, d.reviewed === 0 ? 0 : 2 - (d.reviewed % 2)],
      [`skip${i}`, d.reviewed === 0 ? 0 : Math.floor((d.reviewed - 1) / 2)],
    ]),
  ) as MiddleValues
  const middles: DayMiddles[] = days.map(() => ({ waited: { low: null, high: null }, eta: { low: null, high: null } }))
  if (days.every((d) => d.reviewed === 0)) return middles
  for (const row of await middlesQuery(db, values)) {
    const part = Number(row.part)
    const day = middles[Math.floor(part / MEASURES.length)]!
    const middle = day[MEASURES[part % MEASURES.length]!]
    const value = Number(row.value)
    middle.low = middle.low === null ? value : Math.min(middle.low, value)
    middle.high = middle.high === null ? value : Math.max(middle.high, value)
  }
  return middles
}
