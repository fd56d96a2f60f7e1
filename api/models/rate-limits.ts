import type { Db } from '../db/connect'

/**
 * Fixed-window counters in the database, so every api instance sees the same counts (DESIGN §1:
 * nothing a second instance needs lives in process memory). One upsert per hit, atomic on both
 * SQLite and PostgreSQL: a window that has ended starts again at 1.
 */
export async function hitRateLimit(db: Db, key: string, windowMs: number, now: number): Promise<{ hits: number; resetAt: number }> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        hits: eb
          .case()
          .when('rate_limits.reset_at', '<=', now)
          .then(1)
          .else(eb('rate_limits.hits', '+', 1))
          .end(),
        reset_at: eb
          .case()
          .when('rate_limits.reset_at', '<=', now)
          .then(now + windowMs)
          .else(eb.ref('rate_limits.reset_at'))
          .end(),
      })),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow()
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) }
}

export async function getRateLimit(db: Db, key: string, now: number) {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'reset_at'])
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst()
  return row && { hits: Number(row.hits), resetAt: Number(row.reset_at) }
}

export async function unhitRateLimit(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('key', '=', key)
    .where('hits', '>', 0)
    .execute()
}

export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute()
}

export async function deleteEndedRateLimits(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute()
}
