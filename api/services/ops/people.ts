import type { StaffRole } from '#contract/endpoint'
import type { DashboardData, ReviewDay } from '#contract/ops/people'
import type { StaffRow } from '../../db/schema'
import type { ApiDeps } from '../../deps'
import { dayBounds, localDay } from '../../lib/day'
import { dayMiddles, glance, REVIEW_DAYS, type Middle } from '../../models/ops/dashboard'
import { searchPeople } from '../../models/ops/people-search'
import { pageBalanceLog } from '../ledger'

const sees = (role: StaffRole | undefined, desk: StaffRole) => role === undefined || role === 'admin' || role === desk

/** The median of a day's one or two middle values, as a sorted list's would be (each value rounded first). */
function median({ low, high }: Middle, unit = 1): number | null {
  if (low === null || high === null) return null
  return Math.round((Math.round(low / unit) + Math.round(high / unit)) / 2)
}

type Week = { today: { start: number; end: number }; starts: number[]; days: string[] }
// The week's local day starts and names change at local midnight only: made once a day per time zone.
const weeks = new Map<string, Week>()

/** Today's bounds, and the REVIEW_DAYS local days up to today (oldest first): their starts and YYYY-MM-DD. */
function weekOf(now: number, timeZone: string): Week {
  const kept = weeks.get(timeZone)
  if (kept && now >= kept.today.start && now < kept.today.end) return kept
  const today = dayBounds(now, timeZone)
  const starts = [today.start]
  while (starts.length < REVIEW_DAYS) starts.unshift(dayBounds(starts[0]! - 1, timeZone).start)
  const week = { today, starts, days: starts.map((start) => localDay(start, timeZone)) }
  weeks.set(timeZone, week)
  return week
}

/**
 * How long a dashboard answer is given again while this api has written nothing to the database
 * since it was read (db/connect.ts counts every write and commit): a console open on several
 * screens, or reloaded, asks for the same figures many times a second. A write through this api
 * reads them again at once; what only time changes (an order falling late, the oldest's wait) and
 * a write by another process (a second api instance, `npm run ops`) show at most this late.
 */
export const DASHBOARD_SHOWN_AGAIN_MS = 1_000
type Shown = { writes: number; at: number; day: number; board: DashboardData }
/** Per api (its deps) and set of parts a role sees: the last answer, of its local day. */
const shown = new WeakMap<ApiDeps, Map<string, Shown>>()

/**
 * What waits and how late, the week's reviews against their ETAs, today's volume and the books:
 * each part only for a role that works it (ADMIN_TOKEN, like an admin, sees all).
 */
export async function dashboard(deps: ApiDeps, staff: StaffRow | undefined): Promise<DashboardData> {
  const now = deps.now()
  const role = staff?.role as StaffRole | undefined
  const parts = { orders: sees(role, 'reviewer'), withdrawals: sees(role, 'payouts'), books: role === undefined || role === 'admin' }
  const week = weekOf(now, deps.config.wallet.timeZone)
  const key = `${Number(parts.orders)}${Number(parts.withdrawals)}${Number(parts.books)}`
  let boards = shown.get(deps)
  if (!boards) shown.set(deps, (boards = new Map()))
  const writes = deps.dbWrites()
  const last = boards.get(key)
  const day = week.today.start
  if (last && last.writes === writes && last.day === day && now >= last.at && now < last.at + DASHBOARD_SHOWN_AGAIN_MS) return last.board
  const board = await readDashboard(deps, parts, week, now)
  boards.set(key, { writes, at: now, day, board })
  return board
}

type Parts = { orders: boolean; withdrawals: boolean; books: boolean }

async function readDashboard(deps: ApiDeps, parts: Parts, week: Week, now: number): Promise<DashboardData> {
  const { currency } = deps.config.wallet
  const seen = await glance(deps.db, parts, { now, today: week.today, starts: week.starts })
  const middles = parts.orders ? await dayMiddles(deps.db, seen.days) : null
  const reviewDays: ReviewDay[] | null = middles
    ? seen.days.map((d, i) => ({
        day: week.days[i]!,
        reviewed: d.reviewed,
        withinEta: d.withinEta,
        medianMinutes: median(middles[i]!.waited, 60_000),
        medianEtaMinutes: median(middles[i]!.eta),
      }))
    : null
  return {
    at: now,
    currency,
    orders: parts.orders ? seen.orders : null,
    withdrawals: parts.withdrawals ? seen.withdrawals : null,
    reviewDays,
    today: {
      day: week.days.at(-1)!,
      orders: parts.orders ? seen.made.orders : null,
      credited: parts.orders ? seen.made.credited : null,
      withdrawalsPaid: parts.withdrawals ? seen.paid.withdrawalsPaid : null,
      paidOut: parts.withdrawals ? seen.paid.paidOut : null,
    },
    books: parts.books ? { balanced: seen.books.mismatches === 0, ...seen.books } : null,
  }
}

/** A person's ledger for the admin desk: the same page their wallet screen reads. */
export const userLedger = (deps: ApiDeps, q: { userId: string; pageNum: number; pageSize: number }) =>
  pageBalanceLog(deps.db, q.userId, q.pageNum, q.pageSize)

/** The people desk's search: who an e-mail, a name, an order or a withdrawal points at. */
export const findPeople = (deps: ApiDeps, q: { q: string }) => searchPeople(deps.db, q.q, 20)
