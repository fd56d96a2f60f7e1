import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { Code } from '#contract/envelope'
import { createMemoryMailer } from '../../api/lib/mailer'
import { startApi, type RunningApi } from '../../api/server'
import { createTestClock, seedUser, type TestApi } from '../support/api'
import { createTestDatabase, type TestDatabase } from '../support/db'

/**
 * When the database goes away: an unexpected error is logged and answered 500 "Server internal
 * error"; the health check answers 503. (This file keeps its own logger, because the usual test
 * logger turns every error line into a failure.)
 */

let database: TestDatabase
let api: RunningApi
const lines: { level: number; msg: string }[] = []
let token: string

beforeAll(async () => {
  database = await createTestDatabase()
  const clock = createTestClock()
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  api = await startApi({
    env: {} as NodeJS.ProcessEnv,
    databaseUrl: database.url,
    port: 0,
    mailer: createMemoryMailer(),
    logger: pino({ level: 'info' }, stream),
    now: clock.now,
    housekeeping: false,
    scryptLogN: 12,
  })
  const facade = { db: api.db, clock, scryptLogN: 12 } as unknown as TestApi
  token = (await seedUser(facade, { email: 'gone@example.com' })).token
})
afterAll(async () => {
  await api?.close().catch(() => undefined)
  await database?.drop()
})

test('database gone: 500 "Server internal error", logged; health 503', async () => {
  await api.db.destroy()
  const res = await fetch(`${api.url}/v1/user/index`, { headers: { token } })
  expect(res.status).toBe(500)
  expect(await res.json()).toEqual({ code: Code.SERVER_ERROR, msg: 'Server internal error', data: null })
  const health = await fetch(`${api.url}/healthz`)
  expect(health.status).toBe(503)
  expect(await health.json()).toEqual({ code: Code.SERVICE_UNAVAILABLE, msg: 'Service unavailable', data: { db: 'down' } })
  await new Promise((r) => setTimeout(r, 20))
  expect(lines.some((l) => l.level === 50 && l.msg === 'unexpected error')).toBe(true)
  expect(JSON.stringify(lines)).not.toContain(token)
})
