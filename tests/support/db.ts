import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/**
 * A throw-away database for one test file. TEST_DB=postgres: a fresh database
 * `cardlane_t_<random>` on the local server (TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped on drop(). Otherwise: a SQLite file in a temp folder, deleted on drop().
 */
export type TestDatabase = { url: string; kind: 'sqlite' | 'postgres'; drop(): Promise<void> }

export const usePostgres = () => process.env.TEST_DB === 'postgres'

const adminUrl = () => process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (usePostgres()) {
    const name = `cardlane_t_${randomBytes(6).toString('hex')}`
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`))
    const url = new URL(adminUrl())
    url.pathname = `/${name}`
    return {
      url: url.toString(),
      kind: 'postgres',
      drop: () =>
        withAdmin(async (c) => {
          // A pool that was just ended may still be saying goodbye (pg-pool resolves end() before
          // its clients have closed): FORCE would cut such a client off, and it would report the
          // cut as an error of the api's. Wait, briefly, until nobody is connected; then drop.
          for (let tries = 0; tries < 100; tries++) {
            const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])
            if (rows[0]?.n === 0) break
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
        }),
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'cardlane-t-'))
  return {
    url: `file:${join(dir, 'test.db')}`,
    kind: 'sqlite',
    drop: () => rm(dir, { recursive: true, force: true }),
  }
}
