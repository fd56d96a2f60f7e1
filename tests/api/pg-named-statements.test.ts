import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type Db } from '../../api/db/connect'
import { createTestDatabase, usePostgres, type TestDatabase } from '../support/db'

/**
 * On PostgreSQL every read and write is prepared once per connection under a name, then only bound
 * and run (api/db/connect.ts withNamedStatements): the server stops parsing and planning the same
 * text on every call. A prepared `select *` that a migration elsewhere made stale still answers.
 */
describe.skipIf(!usePostgres())('named statements on PostgreSQL', () => {
  let database: TestDatabase
  let db: Db

  beforeAll(async () => {
    database = await createTestDatabase()
    db = createDb(database.url).db
  })
  afterAll(async () => {
    await db?.destroy()
    await database?.drop()
  })

  const prepared = (conn: Db) =>
    sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn).then((r) => r.rows.map((row) => row.statement))

  it('prepares a statement on its first run and runs it again without preparing it anew', async () => {
    const text = 'select 40 + 2 as "answer" where 1 = $1'
    await db.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) {
        const { rows } = await sql.raw<{ answer: number }>(text.replace('$1', '1')).execute(conn)
        expect(rows).toEqual([{ answer: 42 }])
      }
      const lookup = await sql<{ n: number }>`select 1 as n where ${1} = 1`.execute(conn)
      expect(lookup.rows).toEqual([{ n: 1 }])
      const statements = await prepared(conn)
      // Once each, however often it ran; the values are not part of the text.
      expect(statements.filter((s) => s === text.replace('$1', '1'))).toHaveLength(1)
      expect(statements.filter((s) => s === 'select 1 as n where $1 = 1')).toHaveLength(1)
    })
  })

  it('leaves transaction control and schema changes unnamed', async () => {
    await db.transaction().execute(async (trx) => {
      await sql`create table if not exists named_probe (a int)`.execute(trx)
      const statements = await prepared(trx)
      expect(statements.filter((s) => /^(begin|create)/i.test(s))).toEqual([])
    })
  })

  it('answers a prepared select * whose table changed, and gives up the connection that held it', async () => {
    await sql`create table stale_probe (a int)`.execute(db)
    await sql`insert into stale_probe values (1)`.execute(db)
    const before = await db.connection().execute(async (conn) => {
      expect((await sql`select * from stale_probe`.execute(conn)).rows).toEqual([{ a: 1 }])
      // Another instance's migration, as it were.
      await sql`alter table stale_probe add column b int default 7`.execute(conn)
      expect((await sql`select * from stale_probe`.execute(conn)).rows).toEqual([{ a: 1, b: 7 }])
      return (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0].pid
    })
    const after = await db.connection().execute(async (conn) => {
      expect((await sql`select * from stale_probe`.execute(conn)).rows).toEqual([{ a: 1, b: 7 }])
      return (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0].pid
    })
    expect(after).not.toBe(before)
  })
})
