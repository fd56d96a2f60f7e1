import { randomUUID } from 'node:crypto'
import { Migrator } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import { createDb, type Db, type DbKind } from '../../api/db/connect'
import { migrateToLatest, migrations } from '../../api/db/migrate'
import { writeTransaction } from '../../api/db/transaction'
import { ApiError } from '../../api/lib/envelope'
import { auditBooks, InsufficientFunds, lockWallet, move } from '../../api/services/ledger'
import { createTestDatabase, type TestDatabase, usePostgres } from '../support/db'

/**
 * What a movement asks of the database (decision 068). On PostgreSQL a movement of a wallet that
 * exists is four statements, each a round trip: BEGIN, the wallet locked by a read, the movement
 * in one statement, COMMIT. Locking a wallet that exists writes nothing. The entry's number comes
 * from the wallet row, so movements asked for at once without a lock taken first still number
 * their entries 1, 2, 3… and never take the wallet below zero.
 */
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
})

afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

const userRow = (id: string, now: number) => ({
  id,
  email: `ls.${id}@example.com`,
  password_hash: null,
  user_name: 'ls',
  head_img: null,
  google_sub: null,
  created_at: now,
  updated_at: now,
})

async function person(): Promise<string> {
  const id = randomUUID()
  await db.insertInto('users').values(userRow(id, Date.now())).execute()
  return id
}

const adjustment = (userId: string, amount: number, key = `ls:${randomUUID()}`) => ({
  userId,
  type: 'adjustment' as const,
  amount,
  refType: 'adjustment' as const,
  note: 'ls',
  key,
})

const locked = (userId: string, amount: number, key?: string) =>
  writeTransaction(db, kind, async (trx) => {
    const now = Date.now()
    await lockWallet(trx, kind, userId, 'NGN', now)
    return move(trx, adjustment(userId, amount, key), 'NGN', now)
  })

/** move() alone, as a payout or a task reward calls it: no lock taken before. */
const unlocked = (userId: string, amount: number, key?: string) =>
  writeTransaction(db, kind, (trx) => move(trx, adjustment(userId, amount, key), 'NGN', Date.now()))

async function walletOf(userId: string) {
  const row = await db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
  return { balance: Number(row.balance), lastSeq: Number(row.last_seq) }
}

async function seqsOf(userId: string): Promise<number[]> {
  const rows = await db.selectFrom('balance_logs').select('seq').where('user_id', '=', userId).orderBy('seq').execute()
  return rows.map((r) => Number(r.seq))
}

describe('a movement', () => {
  it.runIf(usePostgres())('is four statements on PostgreSQL: BEGIN, the lock, the movement, COMMIT', async () => {
    const id = await person()
    await locked(id, 5_000)
    statements = []
    const { entry, repeated } = await locked(id, -2_000)
    expect(statements.map((s) => s.trim().split(/\s+/)[0].toLowerCase())).toEqual(['begin', 'select', 'with', 'commit'])
    expect(statements[1]).toMatch(/for update$/i)
    expect(repeated).toBe(false)
    expect({ seq: entry.seq, amount: entry.amount, balanceAfter: entry.balance_after }).toEqual({
      seq: 2,
      amount: -2_000,
      balanceAfter: 3_000,
    })

    // The same key again: the same four, the first entry answered, nothing moved.
    statements = []
    const again = await locked(id, 500, entry.idempotency_key).catch((err: unknown) => err)
    expect(again).toBeInstanceOf(ApiError)
    expect((again as ApiError).code).toBe(Refusals.IDEMPOTENCY_KEY_REUSED.code)
    statements = []
    const same = await locked(id, -2_000, entry.idempotency_key)
    expect(statements).toHaveLength(4)
    expect(same).toEqual({ entry, repeated: true })
    expect(await walletOf(id)).toEqual({ balance: 3_000, lastSeq: 2 })
  })

  it('locking a wallet that exists writes nothing', async () => {
    const id = await person()
    await locked(id, 1_000)
    statements = []
    await locked(id, 1_000)
    expect(statements.filter((s) => /^\s*insert into "wallets"/i.test(s))).toEqual([])
    expect(await walletOf(id)).toEqual({ balance: 2_000, lastSeq: 2 })
  })

  it('the first movement of a person makes the wallet, locked or not', async () => {
    const [a, b] = [await person(), await person()]
    expect((await unlocked(a, 700)).entry.seq).toBe(1)
    expect((await locked(b, 800)).entry.seq).toBe(1)
    await expect(unlocked(await person(), -1)).rejects.toBeInstanceOf(InsufficientFunds)
    expect(await walletOf(a)).toEqual({ balance: 700, lastSeq: 1 })
    expect(await walletOf(b)).toEqual({ balance: 800, lastSeq: 1 })
  })

  it('many at once without a lock taken first: never below zero, entries numbered without a gap', async () => {
    const id = await person()
    await unlocked(id, 1_000)
    const results = await Promise.allSettled([
      ...Array.from({ length: 30 }, () => unlocked(id, -100)),
      ...Array.from({ length: 5 }, () => unlocked(id, 10)),
    ])
    const done = results.filter((r) => r.status === 'fulfilled')
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientFunds)
    const debited = results.slice(0, 30).filter((r) => r.status === 'fulfilled').length
    expect(results.slice(30).every((r) => r.status === 'fulfilled')).toBe(true)
    expect(debited).toBeGreaterThanOrEqual(10)
    const { balance, lastSeq } = await walletOf(id)
    expect(balance).toBe(1_000 + 50 - debited * 100)
    expect(balance).toBeGreaterThanOrEqual(0)
    expect(lastSeq).toBe(1 + done.length)
    expect(await seqsOf(id)).toEqual(Array.from({ length: 1 + done.length }, (_, i) => i + 1))
    expect(await auditBooks(db)).toEqual([])
  })
})

describe('migration 0028', () => {
  it('gives each wallet the number of its last entry', async () => {
    const older = await createTestDatabase()
    const { db: old } = createDb(older.url)
    try {
      const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0027_delivery-devices')).error).toBeUndefined()
      const now = Date.now()
      const [withEntries, without] = [randomUUID(), randomUUID()]
      await old
        .insertInto('users')
        .values([userRow(withEntries, now), userRow(without, now)])
        .execute()
      const wallet = (userId: string, balance: number) => ({ user_id: userId, currency: 'NGN', balance, frozen: 0, updated_at: now })
      await old
        .insertInto('wallets')
        .values([wallet(withEntries, 300), wallet(without, 0)])
        .execute()
      await old
        .insertInto('balance_logs')
        .values(
          [1, 2, 3].map((seq) => ({
            id: randomUUID(),
            user_id: withEntries,
            seq,
            type: 'adjustment',
            amount: 100,
            balance_after: seq * 100,
            frozen_change: 0,
            frozen_after: 0,
            ref_type: 'adjustment',
            ref_id: null,
            note: null,
            idempotency_key: `ls:${randomUUID()}`,
            created_at: now,
          })),
        )
        .execute()
      expect((await migrateToLatest(old)).error).toBeUndefined()
      const rows = await old.selectFrom('wallets').select(['user_id', 'last_seq']).orderBy('last_seq').execute()
      expect(rows.map((r) => [r.user_id, Number(r.last_seq)])).toEqual([
        [without, 0],
        [withEntries, 3],
      ])
      const next = await writeTransaction(old, older.kind, (trx) => move(trx, adjustment(withEntries, 50), 'NGN', Date.now()))
      expect(next.entry.seq).toBe(4)
    } finally {
      await old.destroy()
      await older.drop()
    }
  })
})
