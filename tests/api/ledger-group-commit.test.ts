import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import { createDb, type Db, type DbKind } from '../../api/db/connect'
import { migrateToLatest } from '../../api/db/migrate'
import { writeTransaction } from '../../api/db/transaction'
import { ApiError } from '../../api/lib/envelope'
import { auditBooks, InsufficientFunds, lockWallet, move } from '../../api/services/ledger'
import { createTestDatabase, type TestDatabase, usePostgres } from '../support/db'

/**
 * Write transactions (docs/decisions/031-group-commit-of-write-transactions.md). On SQLite,
 * callers asked for at once share COMMITs, each in its own savepoint; a refusal takes back only
 * its caller's work; a failed COMMIT fails every caller of it and keeps nothing. On both
 * databases (TEST_DB) a write transaction inside one is a savepoint of it, and concurrent
 * movements leave each wallet at the sum of what was answered done.
 */
const groupCommits = !usePostgres()
let database: TestDatabase
let db: Db
let kind: DbKind
let statements: string[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  const made = createDb(database.url, { onQuery: (text) => statements.push(text) })
  db = made.db
  kind = made.kind
  await migrateToLatest(db)
  // A constraint checked only at COMMIT: the one way a caller's own work makes the COMMIT fail.
  await sql`create table gc_parent (id text primary key)`.execute(db)
  await sql`create table gc_child (id text primary key, parent text references gc_parent (id) deferrable initially deferred)`.execute(db)
})

afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

async function person(balance = 0): Promise<string> {
  const id = randomUUID()
  const now = Date.now()
  await db
    .insertInto('users')
    .values({
      id,
      email: `gc.${id}@example.com`,
      password_hash: null,
      user_name: 'gc',
      head_img: null,
      google_sub: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  if (balance) await movement(id, balance)
  return id
}

const movement = (userId: string, amount: number, key = `gc:${randomUUID()}`) =>
  writeTransaction(db, kind, async (trx) => {
    const now = Date.now()
    await lockWallet(trx, kind, userId, 'NGN', now)
    return move(trx, { userId, type: 'adjustment', amount, refType: 'adjustment', note: 'gc', key }, 'NGN', now)
  })

async function balanceOf(userId: string): Promise<number> {
  const row = await db.selectFrom('wallets').select('balance').where('user_id', '=', userId).executeTakeFirst()
  return Number(row?.balance ?? 0)
}

const commits = () => statements.filter((s) => /\bcommit\b/i.test(s)).length

describe('group commit', () => {
  it.runIf(groupCommits)('movements asked for at once share COMMITs; a refused one takes back only its own work', async () => {
    const others = await Promise.all(Array.from({ length: 11 }, () => person(1_000)))
    const refused = await person(1_000)
    statements = []
    const results = await Promise.allSettled([
      ...others.map((id) => movement(id, -400)),
      // Last in line, so it joins a transaction already under way: its credit goes with its refusal.
      writeTransaction(db, kind, async (trx) => {
        const now = Date.now()
        await lockWallet(trx, kind, refused, 'NGN', now)
        await move(trx, { userId: refused, type: 'adjustment', amount: 500, refType: 'adjustment', key: `gc:${randomUUID()}` }, 'NGN', now)
        return move(
          trx,
          { userId: refused, type: 'adjustment', amount: -5_000, refType: 'adjustment', key: `gc:${randomUUID()}` },
          'NGN',
          now,
        )
      }),
    ])
    expect(results.slice(0, 11).map((r) => r.status)).toEqual(Array(11).fill('fulfilled'))
    const last = results[11]
    expect(last.status).toBe('rejected')
    expect((last as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientFunds)
    // Twelve transactions one by one would be twelve COMMITs (twelve fsyncs).
    expect(commits()).toBeLessThan(6)
    for (const id of others) expect(await balanceOf(id)).toBe(600)
    expect(await balanceOf(refused)).toBe(1_000)
    expect(await auditBooks(db)).toEqual([])
  })

  it.runIf(groupCommits)('a COMMIT that fails answers every caller of it with its error and moves nothing of theirs', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => person(1_000)))
    const results = await Promise.allSettled([
      ...people.map((id) => movement(id, 250)),
      writeTransaction(db, kind, async (trx) => {
        await sql`insert into gc_child (id, parent) values (${randomUUID()}, 'nobody')`.execute(trx)
        return 'inserted'
      }),
    ])
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    // The orphan's caller and at least the caller whose transaction it joined.
    expect(failed.length).toBeGreaterThan(1)
    expect(results[8].status).toBe('rejected')
    const reason = String((results[8] as PromiseRejectedResult).reason)
    expect(reason).toMatch(/foreign key/i)
    for (const f of failed) expect(String(f.reason)).toBe(reason)
    for (const [i, id] of people.entries()) expect(await balanceOf(id)).toBe(results[i].status === 'fulfilled' ? 1_250 : 1_000)
    expect(Number((await sql<{ n: number }>`select count(*) as n from gc_child`.execute(db)).rows[0].n)).toBe(0)
    expect(await auditBooks(db)).toEqual([])
  })

  it('a write transaction inside one is a savepoint of it: its refusal leaves the outer work', async () => {
    const id = await person(1_000)
    const outcome = await writeTransaction(db, kind, async (trx) => {
      const now = Date.now()
      await lockWallet(trx, kind, id, 'NGN', now)
      await move(trx, { userId: id, type: 'adjustment', amount: 100, refType: 'adjustment', key: `gc:${randomUUID()}` }, 'NGN', now)
      const inner = await writeTransaction(trx, kind, (inner) =>
        move(inner, { userId: id, type: 'adjustment', amount: -9_999, refType: 'adjustment', key: `gc:${randomUUID()}` }, 'NGN', now),
      ).catch((err: unknown) => err)
      return inner
    })
    expect(outcome).toBeInstanceOf(InsufficientFunds)
    expect(await balanceOf(id)).toBe(1_100)
  })

  it('any movements at once, some refused, some repeated: each wallet is the sum of what was answered done', async () => {
    const wallets = await Promise.all(Array.from({ length: 3 }, () => person(0)))
    const expected = new Map(wallets.map((w) => [w, 0]))
    const keys: string[] = []
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ wallet: fc.nat({ max: 2 }), amount: fc.integer({ min: -300, max: 300 }), repeat: fc.nat({ max: 4 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (asks) => {
          const sent = asks.map((a) => {
            // Now and then the key of an earlier movement: it answers that movement again.
            const key = a.repeat === 0 && keys.length ? keys[keys.length - 1] : `gc:${randomUUID()}`
            return { userId: wallets[a.wallet], amount: a.amount || 1, key }
          })
          const results = await Promise.allSettled(sent.map((s) => movement(s.userId, s.amount, s.key)))
          for (const [i, r] of results.entries()) {
            if (r.status === 'rejected') {
              // Refused (below zero) or the same key for another movement: nothing else.
              const reused = r.reason instanceof ApiError && r.reason.code === Refusals.IDEMPOTENCY_KEY_REUSED.code
              expect(r.reason instanceof InsufficientFunds || reused).toBe(true)
              continue
            }
            if (!r.value.repeated) {
              expected.set(sent[i].userId, expected.get(sent[i].userId)! + sent[i].amount)
              keys.push(sent[i].key)
            }
          }
          for (const w of wallets) {
            expect(await balanceOf(w)).toBe(expected.get(w))
            expect(await balanceOf(w)).toBeGreaterThanOrEqual(0)
          }
          expect(await auditBooks(db)).toEqual([])
        },
      ),
      { numRuns: 40 },
    )
    for (const w of wallets) {
      const seqs = (await db.selectFrom('balance_logs').select('seq').where('user_id', '=', w).orderBy('seq').execute()).map((r) =>
        Number(r.seq),
      )
      expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    }
  }, 120_000)
})
