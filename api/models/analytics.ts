import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'

/**
 * Stores one analytics event. `onceKey` (e.g. `first_successful_order:<userId>`) is unique: the
 * second event with it is not stored. Answers whether this one was. Safe inside a transaction on
 * both databases (ON CONFLICT DO NOTHING never aborts it).
 */
export async function recordEvent(
  db: Db,
  e: { name: string; userId: string | null; onceKey: string | null; context: Record<string, unknown> | null; occurredAt: number | null },
  now: number,
): Promise<boolean> {
  const r = await db
    .insertInto('analytics_events')
    .values({
      id: newId(),
      name: e.name,
      user_id: e.userId,
      once_key: e.onceKey,
      context_json: e.context ? JSON.stringify(e.context) : null,
      occurred_at: e.occurredAt,
      created_at: now,
    })
    .onConflict((oc) => oc.column('once_key').doNothing())
    .executeTakeFirst()
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
}
