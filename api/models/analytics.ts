import { sql } from 'kysely'
import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'

/**
 * Stores one analytics event. `onceKey` (e.g. `first_successful_order:<userId>`) is unique: the
 * second event with it is not stored. Answers whether this one was. Safe inside a transaction on
 * both databases (ON CONFLICT DO NOTHING never aborts it).
 */
export async function recordEvent(
  db: Db,
  e: {
    name: string
    userId: string | null
    onceKey: string | null
    context: Record<string, unknown> | null
    occurredAt: number | null
    visitorId?: string | null
  },
  now: number,
): Promise<boolean> {
  const r = await db
    .insertInto('analytics_events')
    .values({
      id: newId(),
      name: e.name,
      user_id: e.userId,
      visitor_id: e.visitorId ?? null,
      once_key: e.onceKey,
      context_json: e.context ? JSON.stringify(e.context) : null,
      occurred_at: e.occurredAt,
      created_at: now,
    })
    .onConflict((oc) => oc.column('once_key').doNothing())
    .executeTakeFirst()
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
}

/**
 * Distinct visitors with a page view stored in [start, end): the browser's visitor id, or the
 * person for a page view without one. Counted by when the api stored it, not the device's clock.
 */
export async function countVisitors(db: Db, start: number, end: number): Promise<number> {
  const row = await db
    .selectFrom('analytics_events')
    .select(sql<number | string>`count(distinct coalesce(visitor_id, ${sql.lit('user:')} || user_id))`.as('n'))
    .where('name', '=', 'page_view')
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** People whose FIRST event `name` was stored in [start, end): a repeat later is not a new one. */
export async function countFirstTimers(db: Db, name: string, start: number, end: number): Promise<number> {
  const firsts = db
    .selectFrom('analytics_events')
    .select('user_id')
    .where('name', '=', name)
    .where('user_id', 'is not', null)
    .groupBy('user_id')
    .having((eb) => eb.fn.min('created_at'), '>=', start)
    .having((eb) => eb.fn.min('created_at'), '<', end)
  const row = await db
    .selectFrom(firsts.as('firsts'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * The person's e-mail and the device context of their latest stored event: what an event the api
 * records itself (the first completed order) carries, like the ones a browser sends.
 */
export async function personContext(db: Db, userId: string): Promise<{ email: string | null; context: Record<string, unknown> }> {
  const [user, latest] = await Promise.all([
    db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('analytics_events')
      .select('context_json')
      .where('user_id', '=', userId)
      .where('context_json', 'is not', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ])
  let context: Record<string, unknown> = {}
  try {
    context = latest?.context_json ? (JSON.parse(latest.context_json) as Record<string, unknown>) : {}
  } catch {
    context = {}
  }
  return { email: user?.email ?? null, context }
}
