import { sql } from 'kysely'
import type { Db, DbKind } from './connect'

/**
 * A transaction that reads and then writes (the ledger, withdrawals), safe across processes:
 * - SQLite: BEGIN IMMEDIATE takes the write lock first, so no other connection can change what
 *   was read before this commits (a plain BEGIN would fail or read stale data on upgrade).
 * - PostgreSQL: READ COMMITTED with row locks taken by the caller (SELECT … FOR UPDATE) and
 *   guarded UPDATEs; a serialization failure or deadlock is retried a few times with jitter.
 * The callback may run more than once on PostgreSQL: it must do nothing but database work.
 */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5

export async function writeTransaction<T>(db: Db, kind: DbKind, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (kind === 'sqlite') {
    return db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn)
      try {
        const result = await fn(conn)
        await sql`commit`.execute(conn)
        return result
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined)
        throw err
      }
    })
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn)
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code
      if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20))
    }
  }
}
