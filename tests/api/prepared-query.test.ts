import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type Db } from '../../api/db/connect'
import { preparedQuery } from '../../api/db/fixed-query'
import { migrateToLatest } from '../../api/db/migrate'
import { createTestDatabase, type TestDatabase } from '../support/db'

/**
 * A query compiled once and run with each call's values (api/db/fixed-query.ts): each call must
 * answer for its own values, on SQLite and PostgreSQL, inside a transaction too.
 */
describe('preparedQuery', () => {
  let database: TestDatabase
  let db: Db
  let close: () => Promise<void>
  const statements: string[] = []

  beforeAll(async () => {
    database = await createTestDatabase()
    const made = createDb(database.url, { onQuery: (text) => statements.push(text) })
    db = made.db
    close = () => db.destroy()
    await migrateToLatest(db)
    await db
      .insertInto('gift_card_brands')
      .values(
        ['one', 'two', 'three'].map((id, i) => ({
          id,
          name: id,
          initials: id.slice(0, 2).toUpperCase(),
          background: '#000000',
          foreground: '#FFFFFF',
          featured: i % 2,
          sort: 100 + i,
          eta_minutes: 10 * (i + 1),
          updated_at: 0,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
  })
  afterAll(async () => {
    await close?.()
    await database?.drop()
  })

  const brandsFrom = preparedQuery(2, (d, sort: number, eta: number) =>
    d.selectFrom('gift_card_brands').select('id').where('sort', '>=', sort).where('eta_minutes', '<=', eta).orderBy('sort'),
  )

  it('answers each call with its own values, from one compiled text', async () => {
    statements.length = 0
    expect((await brandsFrom(db, 100, 10)).map((r) => r.id)).toEqual(['one'])
    expect((await brandsFrom(db, 101, 30)).map((r) => r.id)).toEqual(['two', 'three'])
    expect(await brandsFrom(db, 103, 30)).toEqual([])
    expect(new Set(statements).size).toBe(1)
  })

  it('keeps a value the query holds itself beside the arguments', async () => {
    const featuredFrom = preparedQuery(1, (d, sort: number) =>
      d.selectFrom('gift_card_brands').select('id').where('featured', '=', 1).where('sort', '>=', sort),
    )
    expect((await featuredFrom(db, 100)).map((r) => r.id)).toEqual(['two'])
    expect(await featuredFrom(db, 102)).toEqual([])
  })

  it('runs inside a transaction, where the transaction sees its own rows', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('gift_card_brands').set({ eta_minutes: 5 }).where('id', '=', 'three').execute()
      expect((await brandsFrom(trx, 100, 5)).map((r) => r.id)).toEqual(['three'])
      await trx.updateTable('gift_card_brands').set({ eta_minutes: 30 }).where('id', '=', 'three').execute()
    })
    expect(await brandsFrom(db, 100, 5)).toEqual([])
  })

  it('refuses a builder that does not hand an argument to the query as a value of its own', async () => {
    const doubled = preparedQuery(1, (d, sort: number) =>
      d
        .selectFrom('gift_card_brands')
        .select('id')
        .where('sort', '>=', sort * 2),
    )
    await expect(doubled(db, 100)).rejects.toThrow(/argument 0 was used to build the query/)
  })
})
