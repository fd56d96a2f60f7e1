import { sql } from 'kysely'
import type { Db, DbKind } from './connect'

/**
 * A transaction that reads and then writes (the ledger, withdrawals), safe across processes:
 * - SQLite: BEGIN IMMEDIATE takes the write lock first, so no other connection can change what
 *   was read before this commits (a plain BEGIN would fail or read stale data on upgrade).
 * - PostgreSQL: READ COMMITTED with row locks taken by the caller (SELECT … FOR UPDATE) and
 *   guarded UPDATEs; a serialization failure or deadlock is retried a few times with jitter.
 *
 * Group commit on SQLite (docs/decisions/031-group-commit-of-write-transactions.md): callers that
 * arrive while a transaction is under way share the next one, so a durable COMMIT (an fsync) is
 * paid once for many. Each caller runs in its own SAVEPOINT, one after the other on the one
 * connection: a caller that throws (a refusal, a unique violation) rolls back only its own work
 * and gets its own error. Every caller is answered only after the shared COMMIT: if it fails,
 * every caller of the batch gets that error and nothing of theirs is kept. PostgreSQL already
 * flushes the commits of concurrent connections together, so there each caller keeps a
 * transaction of its own.
 *
 * What the callback may do: nothing but database work through `trx` (it may run more than once
 * on PostgreSQL, and a SQLite batch waits for it). A write transaction inside it passes that `trx`
 * (it becomes a savepoint of the same transaction); one started on the outer `db` would wait
 * for the batch that waits for it.
 */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5
/** Callers in one transaction at most: a bigger batch holds the write lock (and its callers) longer. */
const MAX_BATCH = 64

type Waiter = {
  fn: (trx: Db) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

const committers = new WeakMap<Db, GroupCommit>()
/** The connections batches run on: a write transaction asked for on one of them is nested. */
const batchConnections = new WeakSet<Db>()

export async function writeTransaction<T>(db: Db, kind: DbKind, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (batchConnections.has(db) || db.isTransaction) return nested(db, fn)
  if (kind === 'postgres') return ownTransaction(db, fn)
  let committer = committers.get(db)
  if (!committer) committers.set(db, (committer = new GroupCommit(db)))
  return new Promise<T>((resolve, reject) => {
    committer.add({ fn, resolve: resolve as (value: unknown) => void, reject })
  })
}

/** PostgreSQL: a transaction of the caller's own, retried on a serialization failure or deadlock. */
async function ownTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn)
    } catch (err) {
      const code = codeOf(err)
      if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20))
    }
  }
}

let nestedSeq = 0
async function nested<T>(trx: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  const name = `nested_${++nestedSeq}`
  await sql.raw(`savepoint ${name}`).execute(trx)
  try {
    const value = await fn(trx)
    await sql.raw(`release savepoint ${name}`).execute(trx)
    return value
  } catch (err) {
    await sql.raw(`rollback to savepoint ${name}`).execute(trx)
    await sql.raw(`release savepoint ${name}`).execute(trx)
    throw err
  }
}

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code

/** SQLite's group commit: one batch at a time on its one connection (one writer anyway). */
class GroupCommit {
  private readonly queue: Waiter[] = []
  private running = false

  constructor(private readonly db: Db) {}

  add(waiter: Waiter) {
    this.queue.push(waiter)
    this.pump()
  }

  private pump() {
    if (this.running || this.queue.length === 0) return
    this.running = true
    void this.batch().finally(() => {
      this.running = false
      this.pump()
    })
  }

  private async batch() {
    const members: Waiter[] = []
    const outcomes: (() => void)[] = []
    const first = this.queue.shift()
    if (!first) return
    members.push(first)
    const run = (conn: Db, statement: string) => sql.raw(statement).execute(conn)
    try {
      await this.db.connection().execute(async (conn) => {
        batchConnections.add(conn)
        try {
          await run(conn, 'begin immediate')
          await run(conn, 'savepoint w0')
          for (let i = 0, waiter: Waiter | undefined = first; waiter; i++) {
            const w: Waiter = waiter
            try {
              const value = await w.fn(conn)
              outcomes.push(() => w.resolve(value))
            } catch (err) {
              // Only this caller's work goes; the transaction and the others' work stay.
              await run(conn, `rollback to savepoint w${i}`)
              outcomes.push(() => w.reject(err ?? new Error('write transaction failed')))
            }
            await run(conn, `release savepoint w${i}`)
            // Callers that arrived meanwhile join this transaction, up to the cap.
            const next: Waiter | undefined = members.length < MAX_BATCH ? this.queue.shift() : undefined
            if (next) {
              members.push(next)
              await run(conn, `savepoint w${i + 1}`)
            } else {
              await run(conn, 'commit')
            }
            waiter = next
          }
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => undefined)
          throw err
        } finally {
          batchConnections.delete(conn)
        }
      })
    } catch (err) {
      // BEGIN, a savepoint or the COMMIT failed: nobody's work is kept, everybody hears it.
      for (const w of members) w.reject(err)
      return
    }
    for (const answer of outcomes) answer()
  }
}
