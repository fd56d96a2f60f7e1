import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import pg from 'pg'
import { pino } from 'pino'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { sqlitePath } from '../../api/db/connect'
import { SETTLE_MS } from '../../api/lib/db-health'
import { createMemoryMailer } from '../../api/lib/mailer'
import { startApi, type RunningApi, type StartApiOptions } from '../../api/server'
import { createTestClock, seedUser, type TestApi } from '../support/api'
import { createTestDatabase, usePostgres, type TestDatabase } from '../support/db'

/**
 * When the database goes away: the api stays up, answers 503 "Service unavailable" (not 500
 * "Server internal error") while it is away, logs the outage once each way, and answers 200 again
 * when it is back. These apis keep their own logger: the usual test logger turns every error line
 * into a failure, and an outage is logged at error level on purpose.
 */

type Line = { level: number; msg: string; err?: unknown; reason?: string }

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined)
})

async function startLoggedApi(databaseUrl: string, options: Partial<StartApiOptions> = {}) {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const clock = createTestClock()
  const api = await startApi({
    env: {} as NodeJS.ProcessEnv,
    databaseUrl,
    port: 0,
    mailer: createMemoryMailer(),
    logger: pino({ level: 'info' }, stream),
    now: clock.now,
    housekeeping: false,
    hashCost: 'test',
    config: { authRateLimit: 100_000 },
    ...options,
  })
  cleanups.push(() => api.close())
  const facade = { db: api.db, clock, hashCost: 'test' } as unknown as TestApi
  const seeded = (email: string) => seedUser(facade, { email })
  const said = (msg: string) => lines.filter((l) => l.msg === msg)
  return { api, lines, seeded, said }
}

async function testDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase()
  cleanups.push(() => database.drop())
  return database
}

const UNAVAILABLE = { code: Code.SERVICE_UNAVAILABLE, msg: 'Service unavailable', data: null }

const userIndex = (api: RunningApi, token: string) => fetch(`${api.url}/v1/user/index?_t=1`, { headers: { token } })

/** Nothing logged with a stack, nothing answered as a bug. */
function expectNoBugs(lines: Line[]) {
  expect(lines.filter((l) => l.msg === 'unexpected error')).toEqual([])
  expect(lines.filter((l) => l.err !== undefined)).toEqual([])
}

describe.runIf(usePostgres())('PostgreSQL ends every connection of the api while requests run', () => {
  test('a few requests answer 503, none 500, the process stays up, and then 200 again', async () => {
    const database = await testDatabase()
    const { api, lines, seeded, said } = await startLoggedApi(database.url)
    const { token } = await seeded('steady@example.com')
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' })
    await admin.connect()
    cleanups.push(() => admin.end())
    const dbName = new URL(database.url).pathname.slice(1)
    const terminate = () =>
      admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName])

    // What would have ended a process of its own: an 'error' event nobody listens to.
    const crashes: unknown[] = []
    const onCrash = (err: unknown) => crashes.push(err)
    process.on('uncaughtException', onCrash)
    cleanups.push(async () => process.off('uncaughtException', onCrash))

    const statuses = new Map<number, number>()
    let running = true
    let n = 0
    const worker = async () => {
      while (running) {
        // A read, and a write in a transaction (a register code: replaceCode), side by side.
        const res =
          ++n % 2
            ? await userIndex(api, token)
            : await fetch(`${api.url}/auth/sendEmailCode`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ email: `load.${n}@example.com`, type: 1 }),
              })
        await res.arrayBuffer()
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      }
    }
    const workers = Array.from({ length: 8 }, worker)
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
    let ended = 0
    for (let round = 0; round < 3; round++) {
      await pause(300)
      ended += (await terminate()).rowCount ?? 0
    }
    await pause(300)
    running = false
    await Promise.all(workers)

    expect(ended).toBeGreaterThan(0)
    expect(crashes).toEqual([])
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200]))
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([])
    const after = await userIndex(api, token)
    expect(after.status).toBe(200)
    expect((await after.json()).code).toBe(Code.OK)
    expectNoBugs(lines)
    // Three rounds close together are one outage: one line when it starts, one when it has passed.
    await vi.waitFor(() => expect(said('database reachable again')).toHaveLength(1), { timeout: SETTLE_MS * 3 })
    expect(said('database unreachable')).toHaveLength(1)
  })
})

describe('the database cannot be reached', () => {
  test.runIf(usePostgres())('PostgreSQL on a closed port: 503 "Service unavailable" and one log line, however many requests', async () => {
    const closed = await closedPort()
    const url = new URL((await testDatabase()).url)
    url.port = String(closed)
    const { api, said, lines } = await startLoggedApi(url.toString(), { migrate: false })
    for (let i = 0; i < 5; i++) {
      const res = await userIndex(api, 'a'.repeat(43))
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await res.json()).toEqual(UNAVAILABLE)
    }
    const signIn = await fetch(`${api.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'whatever1' }),
    })
    expect(signIn.status).toBe(503)
    const health = await fetch(`${api.url}/healthz`)
    expect(health.status).toBe(503)
    expect(await health.json()).toEqual({ ...UNAVAILABLE, data: { db: 'down' } })
    expect(said('database unreachable')).toHaveLength(1)
    expect(said('database unreachable')[0].reason).toMatch(/ECONNREFUSED|connect/)
    expectNoBugs(lines)
  })

  test.runIf(!usePostgres())('SQLite locked by another process: 503 and one line, then 200 and "reachable again"', async () => {
    const database = await testDatabase()
    const { api, said, lines } = await startLoggedApi(database.url)
    // Wait 50 ms for a lock instead of 5 s, so the test is quick (better-sqlite3 waits synchronously).
    await sql`pragma busy_timeout = 50`.execute(api.db)
    // Another process holds the write lock (a stuck migration, a backup tool, sqlite3 in a shell).
    const other = new SQLite(sqlitePath(database.url))
    cleanups.push(async () => other.close())
    other.exec('BEGIN IMMEDIATE')

    const signIn = () =>
      fetch(`${api.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'locked@example.com', password: 'whatever1' }),
      })
    for (let i = 0; i < 3; i++) {
      const res = await signIn()
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual(UNAVAILABLE)
    }
    expect(said('database unreachable')).toHaveLength(1)
    expect(said('database unreachable')[0].reason).toMatch(/locked/)

    other.exec('ROLLBACK')
    const res = await signIn()
    expect(res.status).toBe(200)
    expect((await res.json()).code).toBe(Refusals.BAD_CREDENTIALS.code)
    await vi.waitFor(() => expect(said('database reachable again')).toHaveLength(1), { timeout: SETTLE_MS * 3 })
    expect(said('database unreachable')).toHaveLength(1)
    expectNoBugs(lines)
  })
})

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}
