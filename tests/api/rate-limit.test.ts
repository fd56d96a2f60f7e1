import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { createLogger } from '../../api/lib/logger'
import { createMemoryMailer } from '../../api/lib/mailer'
import { startApi } from '../../api/server'
import { createTestClock, seedUser, startTestApi, type TestApi } from '../support/api'
import { createTestDatabase } from '../support/db'

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

  test('only wrong passwords count: sign-ins never checked (bad input, a busy hasher, the database away) do not', async () => {
    const right = { email: 'target@example.com', password: 'right password 1' }
    for (let i = 0; i < 5; i++) expect((await api.post('/auth/login', { email: right.email, password: '' })).status).toBe(400)
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
      hashCost: 'test' as const,
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

describe('who is counted: the visitor the web forwards, an IPv6 visitor by its /64', () => {
  const attempt = (api: TestApi, visitor?: string) =>
    api.post('/auth/login', {}, visitor ? { headers: { 'x-forwarded-for': visitor } } : {}).then((r) => r.status)

  describe('the web on this machine (the default outside production: TRUST_PROXY=loopback)', () => {
    let api: TestApi
    beforeAll(async () => {
      api = await startTestApi({ config: { authRateLimit: 3 } })
    })
    afterAll(async () => {
      await api?.close()
    })

    test("one visitor's attempts do not lock out another behind the same web", async () => {
      for (let i = 0; i < 3; i++) expect(await attempt(api, '203.0.113.9')).toBe(400)
      expect(await attempt(api, '203.0.113.9')).toBe(429)
      expect(await attempt(api, '198.51.100.7')).toBe(400)
    })

    test('an IPv6 visitor rotating inside its /64 is one visitor; the next /64 is another', async () => {
      for (const ip of ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2:ffff:1:2:3']) expect(await attempt(api, ip)).toBe(400)
      expect(await attempt(api, '2001:db8:1:2:abcd::9')).toBe(429)
      expect(await attempt(api, '2001:db8:1:3::a')).toBe(400)
    })
  })

  // TRUST_PROXY=none, or web servers elsewhere: this caller (127.0.0.1) is not one of them.
  describe.each([[[]], [['10.0.1.0/24']]])('TRUST_PROXY=%j', (trustProxy) => {
    let api: TestApi
    beforeAll(async () => {
      api = await startTestApi({ config: { authRateLimit: 3, trustProxy } })
    })
    afterAll(async () => {
      await api?.close()
    })

    test('a caller that is not a trusted web server cannot pick the address it is counted at', async () => {
      for (let i = 0; i < 3; i++) expect(await attempt(api, `203.0.113.${i}`)).toBe(400)
      expect(await attempt(api, '203.0.113.200')).toBe(429)
      expect(await attempt(api)).toBe(429)
    })
  })
})
