import { AnalyticsEvent, ONCE_PER_USER, PERSON_EVENTS, type AnalyticsEventBody } from '#contract/analytics'
import type { FunnelData } from '#contract/ops/money'
import type { Db } from '../db/connect'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { dayBounds, localDay } from '../lib/day'
import { countFirstTimers, countVisitors, personContext, recordEvent } from '../models/analytics'

/** Analytics events (SPEC §3): stored, never shown; once-per-user events once per person. */

export const onceKey = (name: string, userId: string) => (ONCE_PER_USER.includes(name) ? `${name}:${userId}` : null)

/** The device fields an event carries (SPEC §3), besides its time and person. */
const DEVICE_FIELDS = ['userAgent', 'platform', 'screenResolution', 'language', 'timezone'] as const

/**
 * One event from the web's collector. The person is the token's (`user`), never the body's
 * `userId` or `userEmail`: the event carries the token's person's e-mail (SPEC §3). A person's
 * event (register, login, an order…) without a signed-in person is not stored.
 */
export async function storeEvent(deps: ApiDeps, user: User | undefined, body: AnalyticsEventBody): Promise<{ recorded: boolean }> {
  const { name, timestamp, visitorId, userEmail: _fromTokenToo, userId: _fromToken, ...sent } = body
  const context: Record<string, unknown> = user ? { ...sent, userEmail: user.email } : sent
  if (!user && PERSON_EVENTS.includes(name)) return { recorded: false }
  const recorded = await recordEvent(
    deps.db,
    {
      name,
      userId: user?.id ?? null,
      visitorId: visitorId ?? null,
      onceKey: user ? onceKey(name, user.id) : null,
      context: Object.keys(context).length ? context : null,
      occurredAt: timestamp ?? null,
    },
    deps.now(),
  )
  return { recorded }
}

/**
 * Inside the completing transaction: the person's first completed order, recorded once, with the
 * fields every event carries: the person's e-mail and the device of their latest event.
 */
export async function recordFirstSuccessfulOrder(db: Db, userId: string, orderId: string, now: number): Promise<boolean> {
  const name = AnalyticsEvent.FIRST_SUCCESSFUL_ORDER
  const person = await personContext(db, userId)
  const device = Object.fromEntries(DEVICE_FIELDS.filter((f) => typeof person.context[f] === 'string').map((f) => [f, person.context[f]]))
  const context = { ...device, userEmail: person.email, orderId }
  return recordEvent(db, { name, userId, onceKey: onceKey(name, userId), context, occurredAt: now }, now)
}

const DAY_MS = 86_400_000

/** [start, end) of a calendar day in `timeZone` (a day may be 23 or 25 hours long). */
function boundsOfDay(day: string, timeZone: string): { start: number; end: number } {
  const noonUtc = Date.parse(`${day}T12:00:00Z`)
  // Noon UTC is that day in every zone within ±12 h; the two others cover UTC+13 and UTC+14.
  const at = [noonUtc, noonUtc - DAY_MS / 2, noonUtc + DAY_MS / 2].find((t) => localDay(t, timeZone) === day) ?? noonUtc
  return dayBounds(at, timeZone)
}

/**
 * The funnel (`npm run ops -- stats`): visits → registrations → first order → first withdrawal
 * over whole days of the installation's time zone, both days included; by default the 30 days up
 * to today. Each step counts people, from the analytics events: distinct visitors with a page
 * view; people whose registration, first order (`first_successful_order`, stored once per person)
 * and first withdrawal were stored in those days.
 */
export async function funnel(deps: ApiDeps, q: { from?: string; to?: string }): Promise<FunnelData> {
  const { timeZone } = deps.config.wallet
  const today = localDay(deps.now(), timeZone)
  const to = q.to ?? (q.from && q.from > today ? q.from : today)
  const from = q.from ?? localDay(boundsOfDay(to, timeZone).start + DAY_MS / 2 - 29 * DAY_MS, timeZone)
  const start = boundsOfDay(from, timeZone).start
  const end = boundsOfDay(to, timeZone).end
  const [visits, registrations, firstOrders, firstWithdrawals] = await Promise.all([
    countVisitors(deps.db, start, end),
    countFirstTimers(deps.db, AnalyticsEvent.REGISTER, start, end),
    countFirstTimers(deps.db, AnalyticsEvent.FIRST_SUCCESSFUL_ORDER, start, end),
    countFirstTimers(deps.db, AnalyticsEvent.WITHDRAWAL_CREATED, start, end),
  ])
  return { from, to, timeZone, visits, registrations, firstOrders, firstWithdrawals }
}
