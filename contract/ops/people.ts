import { z } from 'zod'
import { get } from '../endpoint'
import { pageQuerySchema } from '../envelope'
import { currencyCode } from '../money-fields'
import { balanceLogPage } from '../wallet'
import { deskAuth } from './desks'

/**
 * The operator console's dashboard and the people desk's reads (contract/ops/money.ts has the moves).
 * The dashboard answers each part only to a role that may see it (null otherwise): orders to
 * reviewers, withdrawals to payouts, the books to admins; admins see all of it.
 */
const waitingSchema = z.object({
  /** How many wait (orders: pending or reviewing; withdrawals: pending or processing). */
  waiting: z.number().int().nonnegative(),
  /** Of them, past their ETA (an order's brand ETA; a withdrawal's expected-by time). */
  late: z.number().int().nonnegative(),
  /** When the oldest of them was made (epoch ms), or null when nothing waits. */
  oldestAt: z.number().int().nullable(),
})

/** One day of reviews: orders first decided (completed, lowered or rejected) by a reviewer that day. */
export const reviewDaySchema = z.object({
  /** YYYY-MM-DD in the installation's time zone. */
  day: z.string(),
  reviewed: z.number().int().nonnegative(),
  /** Of them, decided within the brand's ETA. */
  withinEta: z.number().int().nonnegative(),
  /** The median time from order to decision, in minutes, or null without reviews. */
  medianMinutes: z.number().int().nullable(),
  /** The median ETA those orders were promised, in minutes, or null. */
  medianEtaMinutes: z.number().int().nullable(),
})
export type ReviewDay = z.infer<typeof reviewDaySchema>

export const dashboardData = z.object({
  at: z.number().int(),
  currency: currencyCode,
  orders: waitingSchema.nullable(),
  withdrawals: waitingSchema.nullable(),
  /** The last 7 days, oldest first, today last. */
  reviewDays: z.array(reviewDaySchema).nullable(),
  /** Since local midnight. */
  today: z.object({
    day: z.string(),
    /** Orders made today and the payouts credited for orders completed today (minor units). */
    orders: z.number().int().nonnegative().nullable(),
    credited: z.number().int().nonnegative().nullable(),
    /** Withdrawals paid today (and not reversed since) and what the banks received: amounts less fees (minor units). */
    withdrawalsPaid: z.number().int().nonnegative().nullable(),
    paidOut: z.number().int().nonnegative().nullable(),
  }),
  books: z
    .object({ balanced: z.boolean(), wallets: z.number().int().nonnegative(), mismatches: z.number().int().nonnegative() })
    .nullable(),
})
export type DashboardData = z.infer<typeof dashboardData>

export const userLedgerQuery = pageQuerySchema.extend({ userId: z.string().trim().min(1).max(64) }).strict()

/** A console search: part of an e-mail or a name, a user id, an order's number, a withdrawal's id or reference. */
export const peopleQuery = z.object({ q: z.string().trim().min(2, 'q: at least 2 characters').max(254) }).strict()

export const personHit = z.object({
  userId: z.string(),
  email: z.string(),
  userName: z.string(),
  createdAt: z.number().int(),
  /** What matched: the person's own e-mail, name or id, or one of their orders or withdrawals. */
  foundBy: z.enum(['email', 'name', 'id', 'order', 'withdrawal']),
  /** The order whose number matched (foundBy `order`), else null. */
  orderNo: z.string().nullable(),
})
export type PersonHit = z.infer<typeof personHit>

export const peopleDeskApi = {
  dashboard: get('/admin/dashboard', deskAuth('dashboard'), z.object({}).strict(), dashboardData),
  /** A person's ledger, newest first (the same entries their wallet screen pages). */
  userLedger: get('/admin/user/ledger', deskAuth('people'), userLedgerQuery, balanceLogPage),
  /** At most 20 people, each once, newest matches first. */
  findPeople: get('/admin/people', deskAuth('people'), peopleQuery, z.array(personHit)),
}
