import { statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createDb, isUniqueViolation, withStatementCache, type Db } from '../../api/db/connect'
import { migrateToLatest, migrations } from '../../api/db/migrate'
import { hitRateLimit } from '../../api/models/rate-limits'
import { createTestDatabase, usePostgres, type TestDatabase } from '../support/db'

/** The data layer on whichever database this run uses (TEST_DB=postgres or SQLite). */

let database: TestDatabase
let db: Db
beforeAll(async () => {
  database = await createTestDatabase()
  db = createDb(database.url).db
  await migrateToLatest(db)
})
afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

test('migrating again is a no-op; every migration is recorded', async () => {
  const again = await migrateToLatest(db)
  expect(again.results).toEqual([])
  const rows = await db
    .selectFrom('kysely_migration' as never)
    .select('name' as never)
    .execute()
  expect(rows.map((r) => (r as { name: string }).name)).toEqual(Object.keys(migrations))
})

test('0013 renames messages to notifications, keeping every row, and back', async () => {
  const older = await createTestDatabase()
  const { db: old } = createDb(older.url)
  try {
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0012_payout-state')).error).toBeUndefined()
    await old
      .insertInto('users')
      .values({
        id: 'u',
        email: 'm@example.com',
        password_hash: null,
        user_name: 'm',
        head_img: null,
        google_sub: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute()
    const row = {
      id: 'n1',
      user_id: 'u',
      kind: 'wallet',
      title: 'Wallet credited',
      content: '₦1.00',
      ref_id: null,
      read_at: null,
      created_at: 2,
    }
    await old
      .insertInto('messages' as never)
      .values(row as never)
      .execute()

    await migrateToLatest(old)
    expect(await old.selectFrom('notifications').selectAll().execute()).toEqual([row])
    const tables = (await old.introspection.getTables()).map((t) => t.name)
    expect(tables).toContain('notifications')
    expect(tables).not.toContain('messages')

    expect((await migrator.migrateTo('0012_payout-state')).error).toBeUndefined()
    expect(
      await old
        .selectFrom('messages' as never)
        .selectAll()
        .execute(),
    ).toEqual([row])
  } finally {
    await old.destroy()
    await older.drop()
  }
})

test('bigint timestamps come back as numbers', async () => {
  const at = Date.now()
  await db
    .insertInto('users')
    .values({
      id: 'u1',
      email: 'n@example.com',
      password_hash: null,
      user_name: 'n',
      head_img: null,
      google_sub: null,
      created_at: at,
      updated_at: at,
    })
    .execute()
  const row = await db.selectFrom('users').selectAll().where('id', '=', 'u1').executeTakeFirstOrThrow()
  expect(row.created_at).toBe(at)
  expect(typeof row.created_at).toBe('number')
})

test('e-mail and Google account are unique; many accounts may have no Google account', async () => {
  const base = { password_hash: null, user_name: 'x', head_img: null, created_at: 1, updated_at: 1 }
  await db
    .insertInto('users')
    .values({ ...base, id: 'a', email: 'a@example.com', google_sub: null })
    .execute()
  await db
    .insertInto('users')
    .values({ ...base, id: 'b', email: 'b@example.com', google_sub: null })
    .execute()
  await db
    .insertInto('users')
    .values({ ...base, id: 'c', email: 'c@example.com', google_sub: 'g' })
    .execute()
  const dupEmail = db
    .insertInto('users')
    .values({ ...base, id: 'd', email: 'a@example.com', google_sub: null })
    .execute()
  await expect(dupEmail).rejects.toSatisfy(isUniqueViolation)
  const dupSub = db
    .insertInto('users')
    .values({ ...base, id: 'e', email: 'e@example.com', google_sub: 'g' })
    .execute()
  await expect(dupSub).rejects.toSatisfy(isUniqueViolation)
})

test('sessions go when their user goes', async () => {
  await db.insertInto('sessions').values({ token_hash: 'h', user_id: 'a', created_at: 1, expires_at: 2, revoked_at: null }).execute()
  await db.deleteFrom('users').where('id', '=', 'a').execute()
  expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([])
})

test('rate-limit windows: count, then start again once the window has passed; parallel hits all count', async () => {
  expect(await hitRateLimit(db, 'k', 1000, 0)).toEqual({ hits: 1, resetAt: 1000 })
  expect(await hitRateLimit(db, 'k', 1000, 500)).toEqual({ hits: 2, resetAt: 1000 })
  expect(await hitRateLimit(db, 'k', 1000, 1000)).toEqual({ hits: 1, resetAt: 2000 })
  const hits = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(db, 'p', 1000, 0)))
  expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
})

test.runIf(!usePostgres())('the SQLite file and its -wal and -shm are readable by their owner only (0600)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cardlane-mode-'))
  try {
    const path = join(dir, 'data', 'cardlane.db')
    const fresh = createDb(`file:${path}`).db
    await migrateToLatest(fresh)
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8)
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual(['600', '600', '600'])
    await fresh.destroy()

    // A file an older version left world-readable is narrowed at the next start.
    const old = join(dir, 'old.db')
    writeFileSync(old, '', { mode: 0o644 })
    const reopened = createDb(`file:${old}`).db
    expect(mode(old)).toBe('600')
    await reopened.destroy()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('SQLite keeps each prepared statement (Kysely prepares every query): the same text is prepared once, the cache is bounded', () => {
  const sqlite = new SQLite(':memory:')
  const prepare = vi.spyOn(sqlite, 'prepare')
  const cached = withStatementCache(sqlite, 2)
  const a = cached.prepare('select 1 as a')
  expect(cached.prepare('select 1 as a')).toBe(a)
  expect(prepare).toHaveBeenCalledTimes(1)
  cached.prepare('select 2 as b')
  cached.prepare('select 1 as a') // used again: the most recent now
  cached.prepare('select 3 as c') // over the bound: the least recently used ('select 2') goes
  expect(prepare).toHaveBeenCalledTimes(3)
  cached.prepare('select 1 as a')
  expect(prepare).toHaveBeenCalledTimes(3)
  cached.prepare('select 2 as b')
  expect(prepare).toHaveBeenCalledTimes(4)
  cached.close()
  expect(sqlite.open).toBe(false)
})

test('a kept statement runs again with new parameters, and after a schema change', async () => {
  const { db: memory } = createDb(':memory:')
  await sql`create table t (n integer)`.execute(memory)
  for (const n of [1, 2, 3]) await sql`insert into t (n) values (${n})`.execute(memory)
  const over = (n: number) => sql<{ n: number }>`select n from t where n > ${n} order by n`.execute(memory)
  expect((await over(1)).rows.map((r) => r.n)).toEqual([2, 3])
  expect((await over(2)).rows.map((r) => r.n)).toEqual([3])
  await sql`alter table t add column m integer default 7`.execute(memory)
  expect((await over(0)).rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
  await memory.destroy()
})
