import { sql } from 'kysely'
import type { Db, DbKind } from './connect'

/**
 * A transaction that reads and then writes (the ledger, withdrawals), safe across processes:
 * - SQLite: BEGIN IMMEDIATE takes the write lock first, so no other connection can change what
 *   was read before this commits (a plain BEGIN would fail or read stale data on upgrade).
 * - PostgreSQL: READ COMMITTED with row locks taken by the caller (SELECT … FOR UPDATE) and
 *   guarded UPDATEs; a serialization failure or deadlock is retried a few times with jitter.
 *
 * Group commit (docs/decisions/031-group-commit-of-write-transactions.md): callers that arrive
 * while a transaction is under way share the next one, so a durable COMMIT (an fsync) is paid
 * once for many. Each caller runs in its own SAVEPOINT, one after the other on one connection:
 * a caller that throws (a refusal, a unique violation) rolls back only its own work and gets its
 * own error. Every caller is answered only after the shared COMMIT: if it fails, every caller
 * of the batch gets that error and nothing of theirs is kept.
 *
 * What the callback may do: nothing but database work through `trx` (it may run more than once
 * on PostgreSQL, and the batch waits for it). A write transaction inside it passes that `trx`
 * (it becomes a savepoint of the same transaction); one started on the outer `db` would wait
 * for the batch that waits for it.
 */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5
/** Callers in one transaction at most: a bigger batch holds the write lock (and its callers) longer. */
const MAX_BATCH = 64
/** PostgreSQL batches under way at once, each on its own pooled connection (the rest serve reads). */
const PG_BATCHES = 4

type Waiter = {
  fn: (trx: Db) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
  attempt: number
}

const committers = new WeakMap<Db, GroupCommit>()
/** The connections batches run on: a write transaction asked for on one of them is nested. */
const batchConnections = new WeakSet<Db>()

export async function writeTransaction<T>(db: Db, kind: DbKind, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (batchConnections.has(db)) return nested(db, fn)
  let committer = committers.get(db)
  if (!committer) committers.set(db, (committer = new GroupCommit(db, kind)))
  return new Promise<T>((resolve, reject) => {
    committer.add({ fn, resolve: resolve as (value: unknown) => void, reject, attempt: 1 })
  })
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

class GroupCommit {
  private readonly queue: Waiter[] = []
  private running = 0
  private readonly slots: number

  constructor(
    private readonly db: Db,
    private readonly kind: DbKind,
  ) {
    // SQLite has one connection, and one writer at a time anyway.
    this.slots = kind === 'sqlite' ? 1 : PG_BATCHES
  }

  add(waiter: Waiter) {
    this.queue.push(waiter)
    this.pump()
  }

  private pump() {
    while (this.running < this.slots && this.queue.length > 0) {
      this.running++
      void this.batch().finally(() => {
        this.running--
        this.pump()
      })
    }
  }

  /**
   * Several statements in one round trip where the driver allows it (PostgreSQL's simple query
   * protocol; better-sqlite3 prepares one statement at a time, in process, so nothing is lost).
   */
  private async run(conn: Db, ...statements: string[]) {
    if (this.kind === 'postgres') await sql.raw(statements.join('; ')).execute(conn)
    else for (const s of statements) await sql.raw(s).execute(conn)
  }

  private async batch() {
    const members: Waiter[] = []
    const outcomes: (() => void)[] = []
    const retries: Waiter[] = []
    const first = this.queue.shift()
    if (!first) return
    members.push(first)
    try {
      await this.db.connection().execute(async (conn) => {
        batchConnections.add(conn)
        try {
          await this.run(conn, this.kind === 'sqlite' ? 'begin immediate' : 'begin', 'savepoint w0')
          for (let i = 0, waiter: Waiter | undefined = first; waiter; i++) {
            let failed: unknown
            let value: unknown
            try {
              value = await waiter.fn(conn)
            } catch (err) {
              failed = err ?? new Error('write transaction failed')
            }
            if (failed !== undefined) {
              // Only this caller's work goes; the transaction and the others' work stay.
              await this.run(conn, `rollback to savepoint w${i}`)
              const code = codeOf(failed)
              if (this.kind === 'postgres' && typeof code === 'string' && RETRYABLE.has(code) && waiter.attempt < MAX_ATTEMPTS) {
                retries.push({ ...waiter, attempt: waiter.attempt + 1 })
              } else {
                const w: Waiter = waiter
                const err = failed
                outcomes.push(() => w.reject(err))
              }
            } else {
              const w: Waiter = waiter
              outcomes.push(() => w.resolve(value))
            }
            // Callers that arrived meanwhile join this transaction, up to the cap.
            const next: Waiter | undefined = members.length < MAX_BATCH ? this.queue.shift() : undefined
            if (next) {
              members.push(next)
              await this.run(conn, `release savepoint w${i}`, `savepoint w${i + 1}`)
            } else {
              await this.run(conn, `release savepoint w${i}`, 'commit')
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
    for (const w of retries) {
      setTimeout(() => this.add(w), 5 * w.attempt + Math.random() * 20)
    }
  }
}
