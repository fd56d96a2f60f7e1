import type { StaffRole } from '#contract/endpoint'
import type { DashboardData, ReviewDay } from '#contract/ops/people'
import type { StaffRow } from '../../db/schema'
import type { ApiDeps } from '../../deps'
import { dayBounds, localDay } from '../../lib/day'
import { booksAtAGlance, decidedByDay, ordersBetween, paidOutBetween, waitingOrders, waitingWithdrawals } from '../../models/ops/dashboard'
import { searchPeople } from '../../models/ops/people-search'
import { pageBalanceLog } from '../ledger'

const DAYS = 7
const sees = (role: StaffRole | undefined, desk: StaffRole) => role === undefined || role === 'admin' || role === desk

/** The median of one or two middle values, as a sorted list's would be (each value rounded first). */
function median(low: number | null, high: number | null, unit = 1): number | null {
  if (low === null || high === null) return null
  return Math.round((Math.round(low / unit) + Math.round(high / unit)) / 2)
}

/** The last DAYS local days, oldest first: how many orders reviewers decided, and how many in time. */
async function reviewDays(deps: ApiDeps, now: number, timeZone: string): Promise<ReviewDay[]> {
  const starts: number[] = [dayBounds(now, timeZone).start]
  for (let i = 1; i < DAYS; i++) starts.unshift(dayBounds(starts[0]! - 1, timeZone).start)
  const days = await decidedByDay(deps.db, starts)
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

/**
 * What waits and how late, the week's reviews against their ETAs, today's volume and the books:
 * each part only for a role that works it (ADMIN_TOKEN, like an admin, sees all).
 */
export async function dashboard(deps: ApiDeps, staff: StaffRow | undefined): Promise<DashboardData> {
  const now = deps.now()
  const { timeZone, currency } = deps.config.wallet
  const role = staff?.role as StaffRole | undefined
  const orders = sees(role, 'reviewer')
  const payouts = sees(role, 'payouts')
  const admin = role === undefined || role === 'admin'
  const today = dayBounds(now, timeZone)
  const [waitOrders, waitWithdrawals, days, made, paid, books] = await Promise.all([
    orders ? waitingOrders(deps.db, now) : null,
    payouts ? waitingWithdrawals(deps.db, now) : null,
    orders ? reviewDays(deps, now, timeZone) : null,
    orders ? ordersBetween(deps.db, today.start, today.end) : null,
    payouts ? paidOutBetween(deps.db, today.start, today.end) : null,
    admin ? booksAtAGlance(deps.db) : null,
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

/** A person's ledger for the admin desk: the same page their wallet screen reads. */
export const userLedger = (deps: ApiDeps, q: { userId: string; pageNum: number; pageSize: number }) =>
  pageBalanceLog(deps.db, q.userId, q.pageNum, q.pageSize)

/** The people desk's search: who an e-mail, a name, an order or a withdrawal points at. */
export const findPeople = (deps: ApiDeps, q: { q: string }) => searchPeople(deps.db, q.q, 20)
