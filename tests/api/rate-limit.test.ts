import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { startApi } from '../../api/server'
import { createMemoryMailer } from '../../api/lib/mailer'
import { createLogger } from '../../api/lib/logger'
import { createTestDatabase } from '../support/db'
import { createTestClock, seedUser, startTestApi, type TestApi } from '../support/api'

/** Limits live in the database, so they hold across api instances and survive restarts. */

describe('failed sign-ins per e-mail', () => {
  let api: TestApi
  beforeAll(async () => {
    api = await startTestApi({ config: { loginFailLimit: 3 } })
    await seedUser(api, { email: 'target@example.com', password: 'right password 1' })
  })
  afterAll(async () => {
    await api?.close()
  })

  test('after 3 failures the address is locked for 15 minutes, then opens again', async () => {
    const right = { email: 'target@example.com', password: 'right password 1' }
    // A success does not count towards the limit.
    expect((await api.post('/auth/login', right)).body.code).toBe(Code.OK)
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/auth/login', { ...right, password: `guess ${i}` })
      expect(res.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    }
    const locked = await api.post('/auth/login', right)
    expect(locked.status).toBe(429)
    expect(locked.body.code).toBe(Code.TOO_MANY_REQUESTS)
    // The lock is per address: another one is not affected.
    expect((await api.post('/auth/login', { email: 'other@example.com', password: 'whatever1' })).body.code).toBe(
      Refusals.BAD_CREDENTIALS.code,
    )
    api.clock.advance(15 * 60_000)
    expect((await api.post('/auth/login', right)).body.code).toBe(Code.OK)
  })
})

describe('auth calls per IP, shared by two api instances on one database', () => {
  test('the limit counts requests to either instance', async () => {
    const database = await createTestDatabase()
    const clock = createTestClock()
    const common = {
      env: {} as NodeJS.ProcessEnv,
      databaseUrl: database.url,
      port: 0,
      mailer: createMemoryMailer(),
      logger: createLogger('silent'),
      now: clock.now,
      housekeeping: false,
      scryptLogN: 12,
      config: { authRateLimit: 4 },
    }
    const a = await startApi(common)
    const b = await startApi(common)
    try {
      const hit = (url: string) =>
        fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect((await hit(a.url)).status).toBe(400)
      expect((await hit(b.url)).status).toBe(400)
      expect((await hit(a.url)).status).toBe(400)
      expect((await hit(b.url)).status).toBe(400)
      const refused = await hit(a.url)
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({
        code: Code.TOO_MANY_REQUESTS,
        msg: 'Too many requests, please try again later',
        data: null,
      })
      expect(refused.headers.get('retry-after')).toBeTruthy()
      expect((await hit(b.url)).status).toBe(429)
      // Only /auth/* is limited.
      expect((await fetch(`${a.url}/healthz`)).status).toBe(200)
      clock.advance(15 * 60_000)
      expect((await hit(b.url)).status).toBe(400)
    } finally {
      await a.close()
      await b.close()
      await database.drop()
    }
  })
})
