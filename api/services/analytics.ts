import { AnalyticsEvent, ONCE_PER_USER, type AnalyticsEventBody } from '#contract/analytics'
import type { Db } from '../db/connect'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { recordEvent } from '../models/analytics'

/** Analytics events (SPEC §3): stored, never shown; once-per-user events once per person. */

export const onceKey = (name: string, userId: string) => (ONCE_PER_USER.includes(name) ? `${name}:${userId}` : null)

export async function storeEvent(deps: ApiDeps, user: User, body: AnalyticsEventBody): Promise<{ recorded: boolean }> {
  const { name, timestamp, userEmail: _notStored, userId: _fromToken, ...context } = body
  const recorded = await recordEvent(
    deps.db,
    {
      name,
      userId: user.id,
      onceKey: onceKey(name, user.id),
      context: Object.keys(context).length ? context : null,
      occurredAt: timestamp ?? null,
    },
    deps.now(),
  )
  return { recorded }
}

/** Inside the completing transaction: the person's first completed order, recorded once. */
export function recordFirstSuccessfulOrder(db: Db, userId: string, orderId: string, now: number): Promise<boolean> {
  const name = AnalyticsEvent.FIRST_SUCCESSFUL_ORDER
  return recordEvent(db, { name, userId, onceKey: onceKey(name, userId), context: { orderId }, occurredAt: now }, now)
}
