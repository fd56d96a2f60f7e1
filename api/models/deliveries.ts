import type { NotifyChannel, NotifyKind } from '#contract/notify'
import type { Db } from '../db/connect'
import type { DeliveryRow } from '../db/schema'
import { newId } from '../lib/tokens'

/**
 * The notification outbox (decision 046). A row is `due` until a worker claims it (`sending`,
 * with a lease), then `sent`, or `dropped` (nowhere to send it, or it kept failing). A claim whose
 * lease ran out (the worker died mid-send) is due again: at most one more send, never a lost one.
 */

export async function addDeliveries(
  db: Db,
  d: { userId: string; notificationId: string; kind: NotifyKind; summary: string; channels: NotifyChannel[] },
  now: number,
): Promise<void> {
  if (d.channels.length === 0) return
  await db
    .insertInto('deliveries')
    .values(
      d.channels.map((channel) => ({
        id: newId(),
        user_id: d.userId,
        notification_id: d.notificationId,
        channel,
        kind: d.kind,
        summary: d.summary,
        status: 'due',
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        sent_at: null,
        last_error: null,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['notification_id', 'channel']).doNothing())
    .execute()
}

/** Rows a worker may claim now: due ones, and claims whose lease ran out. */
export const dueDeliveries = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('deliveries')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'due'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
      ]),
    )
    .orderBy('next_attempt_at', 'asc')
    .limit(limit)
    .execute()

/** Claims the row until `lease` (only one worker's UPDATE matches); the row as claimed, or undefined. */
export async function claimDelivery(db: Db, id: string, now: number, lease: number): Promise<DeliveryRow | undefined> {
  const r = await db
    .updateTable('deliveries')
    .set((eb) => ({ status: 'sending', lease_until: lease, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'due'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
      ]),
    )
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) return undefined
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).where('lease_until', '=', lease).executeTakeFirst()
}

/** Ends the claim (only the holder's, by its lease): sent, dropped, or due again later. */
export async function finishDelivery(
  db: Db,
  id: string,
  lease: number,
  outcome: { status: 'sent' | 'dropped' | 'due'; at: number; nextAt?: number; error?: string | null },
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({
      status: outcome.status,
      lease_until: null,
      ...(outcome.status === 'sent' && { sent_at: outcome.at }),
      ...(outcome.nextAt !== undefined && { next_attempt_at: outcome.nextAt }),
      last_error: outcome.error ?? null,
    })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('lease_until', '=', lease)
    .execute()
}

/** The push subscriptions that have taken this delivery. */
export async function devicesThatTook(db: Db, deliveryId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('delivery_devices').select('subscription_id').where('delivery_id', '=', deliveryId).execute()
  return new Set(rows.map((r) => r.subscription_id))
}

/** Records that a device took the push (twice is once: a worker that died after sending retries). */
export async function deviceTook(db: Db, deliveryId: string, subscriptionId: string, now: number): Promise<void> {
  await db
    .insertInto('delivery_devices')
    .values({ delivery_id: deliveryId, subscription_id: subscriptionId, sent_at: now })
    .onConflict((oc) => oc.columns(['delivery_id', 'subscription_id']).doNothing())
    .execute()
}
