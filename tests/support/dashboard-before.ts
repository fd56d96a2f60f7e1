// The dashboard's figures as they were computed before decision 056 (api/models/ops/dashboard.ts
// and the service of commit 889c44f): a statement a figure, the week's medians by windows. Kept as
// the reference the new statements are held to (tests/api/dashboard-same-figures.test.ts).
import { sql } from 'kysely'
import type { DashboardData, ReviewDay } from '#contract/ops/people'
import type { Db } from '../../api/db/connect'
import { dayBounds, localDay } from '../../api/lib/day'

const OPEN_ORDER_STATUSES = ['pending', 'reviewing'] as const
const OPEN_WITHDRAWAL_STATUSES = ['pending', 'processing'] as const
async function waitingOrders(db: Db, now: number) {
  const row = await db
    .selectFrom('orders')
    .where('status', 'in', OPEN_ORDER_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('waiting'),
      eb.fn.min<number>('created_at').as('oldestAt'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb(eb('created_at', '+', eb('eta_minutes', '*', 60_000)), '<', now))
            .then(1)
            .else(0)
            .end(),
        )
        .as('late'),
    ])
    .executeTakeFirstOrThrow()
  return { waiting: Number(row.waiting), late: Number(row.late ?? 0), oldestAt: row.oldestAt === null ? null : Number(row.oldestAt) }
}

async function waitingWithdrawals(db: Db, now: number) {
  const row = await db
    .selectFrom('withdrawals')
    .where('status', 'in', OPEN_WITHDRAWAL_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('waiting'),
      eb.fn.min<number>('created_at').as('oldestAt'),
      eb.fn.sum<number>(eb.case().when('expected_by', '<', now).then(1).else(0).end()).as('late'),
    ])
    .executeTakeFirstOrThrow()
  return { waiting: Number(row.waiting), late: Number(row.late ?? 0), oldestAt: row.oldestAt === null ? null : Number(row.oldestAt) }
}

/** One local day's reviews: how many, how many within their ETA, and the middle one or two of each measure. */
type DecidedDay = {
  reviewed: number
  withinEta: number
  /** Decision minus creation (ms) of the middle order(s) by that wait: equal when the count is odd. */
  waitedLow: number | null
  waitedHigh: number | null
  /** The middle ETA(s) in minutes, the same way. */
  etaLow: number | null
  etaHigh: number | null
}

/**
 * The orders first decided in each day [starts[i], starts[i + 1]) (the last day open-ended), counted
 * in the database: per day the count, those within their ETA, and the middle rows of the waits and
 * of the ETAs (row numbers by window), so a week of reviews comes back as a row a day.
 */
async function decidedByDay(db: Db, starts: number[]): Promise<DecidedDay[]> {
  const rows = await db
    .with('decided', (qb) =>
      qb
        .selectFrom('orders')
        .where('decided_at', '>=', starts[0]!)
        .select((eb) => [
          // The day's index: the last start it is at or after (the rows are all at or after the first).
          sql<number>`case ${sql.join(
            starts
              .map((start, i) => sql`when decided_at >= ${start} then ${sql.lit(i)}`)
              .slice(1)
              .reverse(),
            sql` `,
          )} else 0 end`.as('day'),
          eb('decided_at', '-', eb.ref('created_at')).as('waited'),
          'eta_minutes as eta',
        ]),
    )
    .with('ranked', (qb) =>
      qb.selectFrom('decided').select((eb) => [
        'day',
        'waited',
        'eta',
        eb.fn
          .countAll()
          .over((ob) => ob.partitionBy('day'))
          .as('n'),
        eb.fn
          .agg('row_number')
          .over((ob) => ob.partitionBy('day').orderBy('waited'))
          .as('byWait'),
        eb.fn
          .agg('row_number')
          .over((ob) => ob.partitionBy('day').orderBy('eta'))
          .as('byEta'),
      ]),
    )
    .selectFrom('ranked')
    .groupBy('day')
    .select((eb) => {
      // Integer division by literals (a bound number is a float on SQLite): the middle row, or the two.
      const low = eb(eb.parens('n', '+', eb.lit(1)), '/', eb.lit(2))
      const high = eb(eb('n', '/', eb.lit(2)), '+', eb.lit(1))
      return [
        'day',
        eb.fn.countAll<number>().as('reviewed'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('waited', '<=', eb('eta', '*', 60_000))
              .then(1)
              .else(0)
              .end(),
          )
          .as('withinEta'),
        eb.fn.min<number>(eb.case().when('byWait', '=', low).then(eb.ref('waited')).end()).as('waitedLow'),
        eb.fn.max<number>(eb.case().when('byWait', '=', high).then(eb.ref('waited')).end()).as('waitedHigh'),
        eb.fn.min<number>(eb.case().when('byEta', '=', low).then(eb.ref('eta')).end()).as('etaLow'),
        eb.fn.max<number>(eb.case().when('byEta', '=', high).then(eb.ref('eta')).end()).as('etaHigh'),
      ]
    })
    .execute()
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))
  const days: DecidedDay[] = starts.map(() => ({
    reviewed: 0,
    withinEta: 0,
    waitedLow: null,
    waitedHigh: null,
    etaLow: null,
    etaHigh: null,
  }))
  for (const r of rows)
    days[Number(r.day)] = {
      reviewed: Number(r.reviewed),
      withinEta: Number(r.withinEta),
      waitedLow: num(r.waitedLow),
      waitedHigh: num(r.waitedHigh),
      etaLow: num(r.etaLow),
      etaHigh: num(r.etaHigh),
    }
  return days
}

/** Orders made in [from, to), and the payouts credited for orders completed then. */
async function ordersBetween(db: Db, from: number, to: number) {
  const [made, credited] = await Promise.all([
    db
      .selectFrom('orders')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('balance_logs')
      .where('ref_type', '=', 'order')
      .where('amount', '>', 0)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('sum'))
      .executeTakeFirstOrThrow(),
  ])
  return { orders: Number(made.n), credited: Number(credited.sum) }
}

/**
 * Withdrawals that became paid (success) in [from, to) and are still paid, and what their banks
 * received: the amount less the fee (the fee never leaves us).
 */
async function paidOutBetween(db: Db, from: number, to: number) {
  const row = await db
    .selectFrom('withdrawals')
    .where('status', '=', 'success')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('withdrawal_events')
        .select('withdrawal_id')
        .where('status', '=', 'success')
        .where('at', '>=', from)
        .where('at', '<', to),
    )
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('fee'))), eb.lit(0)).as('sum'),
    ])
    .executeTakeFirstOrThrow()
  return { withdrawalsPaid: Number(row.n), paidOut: Number(row.sum) }
}

/**
 * The books at a glance: how many wallets, and how many whose balances differ from the sums of their
 * entries (the check `auditBooks` makes). The sums are the wallet's own `entries_amount` and
 * `entries_frozen`, which the database's triggers keep with every entry written (migration 0024),
 * so a page compares two columns a wallet instead of summing every entry.
 */
async function booksAtAGlance(db: Db) {
  const row = await db
    .selectFrom('wallets')
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
    .executeTakeFirstOrThrow()
  return { wallets: Number(row.wallets), mismatches: Number(row.mismatches ?? 0) }
}

function median(low: number | null, high: number | null, unit = 1): number | null {
  if (low === null || high === null) return null
  return Math.round((Math.round(low / unit) + Math.round(high / unit)) / 2)
}

async function reviewDays(db: Db, now: number, timeZone: string): Promise<ReviewDay[]> {
  const starts: number[] = [dayBounds(now, timeZone).start]
  for (let i = 1; i < 7; i++) starts.unshift(dayBounds(starts[0]! - 1, timeZone).start)
  const days = await decidedByDay(db, starts)
  return starts.map((start, i) => {
    const d = days[i]!
    return {
      day: localDay(start, timeZone),
      reviewed: d.reviewed,
      withinEta: d.withinEta,
      medianMinutes: median(d.waitedLow, d.waitedHigh, 60_000),
      medianEtaMinutes: median(d.etaLow, d.etaHigh),
    }
  })
}

/** The whole dashboard for a role (undefined: ADMIN_TOKEN), the way it was answered before. */
export async function dashboardBefore(
  db: Db,
  { now, timeZone, currency, role }: { now: number; timeZone: string; currency: string; role?: 'reviewer' | 'payouts' | 'admin' },
): Promise<DashboardData> {
  const sees = (desk: string) => role === undefined || role === 'admin' || role === desk
  const orders = sees('reviewer')
  const payouts = sees('payouts')
  const admin = role === undefined || role === 'admin'
  const today = dayBounds(now, timeZone)
  const [waitOrders, waitWithdrawals, days, made, paid, books] = await Promise.all([
    orders ? waitingOrders(db, now) : null,
    payouts ? waitingWithdrawals(db, now) : null,
    orders ? reviewDays(db, now, timeZone) : null,
    orders ? ordersBetween(db, today.start, today.end) : null,
    payouts ? paidOutBetween(db, today.start, today.end) : null,
    admin ? booksAtAGlance(db) : null,
  ])
  return {
    at: now,
    currency,
    orders: waitOrders,
    withdrawals: waitWithdrawals,
    reviewDays: days,
    today: {
      day: localDay(now, timeZone),
      orders: made?.orders ?? null,
      credited: made?.credited ?? null,
      withdrawalsPaid: paid?.withdrawalsPaid ?? null,
      paidOut: paid?.paidOut ?? null,
    },
    books: books ? { balanced: books.mismatches === 0, ...books } : null,
  }
}
