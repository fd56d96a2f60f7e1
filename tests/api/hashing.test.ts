import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { scryptHashSecret } from '../../api/lib/hash'
import { createHashGate } from '../../api/lib/hash-gate'
import { createLogger } from '../../api/lib/logger'
import { createMemoryMailer } from '../../api/lib/mailer'
import { hashToken } from '../../api/lib/tokens'
import { upgradePasswordHash } from '../../api/models/users'
import { startApi } from '../../api/server'
import { createTestClock, seedUser, startTestApi, type TestApi } from '../support/api'
import { createTestDatabase } from '../support/db'

/**
 * The production hash cost (the rest of the suite uses a cheap one): what is stored, the upgrade
 * of old scrypt hashes, that no answer skips the slow hash, and how many hashes may run at once.
 */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi({ realHashing: true })
})
afterAll(async () => {
  await api?.close()
})

const ARGON2ID_PRODUCTION = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/
const email = 'hashing@example.com'
const password = 'plum kettle orbit'
let token: string

describe('stored secrets', () => {
  beforeAll(async () => {
    token = (await seedUser(api, { email, password })).token
    await api.post('/auth/sendEmailCode', { email: 'coded@example.com' })
  })

  test('the password is an argon2id m=19 MiB t=2 p=1 string, salted (OWASP minimum)', async () => {
    const row = await api.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()
    expect(row.password_hash).toMatch(ARGON2ID_PRODUCTION)
    expect(row.password_hash).not.toContain(password)
  })

  test('the e-mail code is kept only as an argon2id hash', async () => {
    const code = api.lastCode('coded@example.com', 1)
    const rows = await api.db.selectFrom('email_codes').selectAll().where('email', '=', 'coded@example.com').execute()
    expect(rows).toHaveLength(1)
    expect(rows[0].code_hash).toMatch(ARGON2ID_PRODUCTION)
    expect(JSON.stringify(rows)).not.toContain(code)
  })

  test('the token is kept only as its sha256', async () => {
    expect((await api.get('/v1/user/index', { token })).body.code).toBe(Code.OK)
    const rows = await api.db.selectFrom('sessions').selectAll().execute()
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token))
    expect(JSON.stringify(rows)).not.toContain(token)
  })
})

describe('the same work whether or not the account exists', () => {
  const refused = async (body: object) => {
    const res = await api.post('/auth/login', body)
    expect(res.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
  }

  // Counted, not timed (speed belongs in a benchmark): every branch spends exactly one full hash.
  test('an unknown address spends one hash, like a wrong password', async () => {
    const verify = vi.spyOn(api.deps.hasher, 'verify')
    const dummy = vi.spyOn(api.deps.hasher, 'verifyDummy')
    await refused({ email, password: 'wrong password 1' })
    expect([verify.mock.calls.length, dummy.mock.calls.length]).toEqual([1, 0])
    await refused({ email: 'ghost@example.com', password: 'wrong password 1' })
    expect([verify.mock.calls.length, dummy.mock.calls.length]).toEqual([1, 1])
    // A dummy verification is a real one against a hash nobody knows the secret of.
    expect(await api.deps.hasher.verifyDummy('anything')).toBe(false)
  })
})

describe('scrypt hashes from before argon2id', () => {
  const storedHash = async (address: string) =>
    (await api.db.selectFrom('users').select('password_hash').where('email', '=', address).executeTakeFirstOrThrow()).password_hash

  test('still sign in, and a successful sign-in replaces the hash with argon2id', async () => {
    const address = 'scrypt.era@example.com'
    const { user } = await seedUser(api, { email: address })
    const old = await scryptHashSecret(password, 12)
    await api.db.updateTable('users').set({ password_hash: old }).where('id', '=', user.id).execute()

    const wrong = await api.post('/auth/login', { email: address, password: 'not the password' })
    expect(wrong.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    expect(await storedHash(address)).toBe(old)

    expect((await api.post('/auth/login', { email: address, password })).body.code).toBe(Code.OK)
    const upgraded = await storedHash(address)
    expect(upgraded).toMatch(ARGON2ID_PRODUCTION)
    expect((await api.post('/auth/login', { email: address, password })).body.code).toBe(Code.OK)
    expect(await storedHash(address)).toBe(upgraded)
  })

  test('the upgrade never overwrites a password changed in the meantime', async () => {
    const address = 'reset.meanwhile@example.com'
    const { user } = await seedUser(api, { email: address })
    await api.db.updateTable('users').set({ password_hash: 'the hash after a reset' }).where('id', '=', user.id).execute()
    await upgradePasswordHash(api.db, user.id, 'the hash that was verified', 'argon2id of the old password')
    expect(await storedHash(address)).toBe('the hash after a reset')
  })

  test('the test suite cost is refused in production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    try {
      await expect(startApi({ env: {} as NodeJS.ProcessEnv, hashCost: 'test', databaseUrl: ':memory:', port: 0 })).rejects.toThrow(
        /test hash cost is refused in production/,
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('how many hashes run at once', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  test('at most `slots` at a time, the rest in line, first come first served; strangers alone leave one slot free', async () => {
    const most = async (priority: 'trusted' | 'stranger') => {
      const gate = createHashGate({ slots: 2, maxQueue: 10, maxWaitMs: 5_000 })
      let now = 0
      let peak = 0
      const order: number[] = []
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          gate.run(async () => {
            peak = Math.max(peak, ++now)
            await sleep(5)
            order.push(i)
            now--
          }, priority),
        ),
      )
      return { peak, order }
    }
    const known = await most('trusted')
    expect(known.peak).toBe(2)
    expect(known.order.slice(2)).toEqual([2, 3, 4, 5, 6, 7])
    const strangers = await most('stranger')
    expect(strangers.peak).toBe(1)
    expect(strangers.order).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  test('a full line is refused at once, a long wait after maxWaitMs: HTTP 429, the catalogue message', async () => {
    const gate = createHashGate({ slots: 1, maxQueue: 1, maxWaitMs: 30 })
    const slow = gate.run(() => sleep(200))
    const waiting = gate.run(() => sleep(1))
    await expect(gate.run(() => sleep(1))).rejects.toMatchObject({
      status: 429,
      code: 429,
      message: 'Too many requests, please try again later',
    })
    await expect(waiting).rejects.toMatchObject({ status: 429 })
    await slow
    expect([gate.running, gate.waiting]).toEqual([0, 0])
    await expect(gate.run(async () => 'free again')).resolves.toBe('free again')
  })

  test('a flood of sign-ins for unknown addresses is refused with 429 past the gate; a person signs in after', async () => {
    const database = await createTestDatabase()
    const flooded = await startApi({
      env: {} as NodeJS.ProcessEnv,
      databaseUrl: database.url,
      port: 0,
      mailer: createMemoryMailer(),
      logger: createLogger('silent'),
      now: createTestClock().now,
      housekeeping: false,
      hashGate: { slots: 1, maxQueue: 2, maxWaitMs: 100 },
      config: { authRateLimit: 100_000 },
    })
    try {
      const facade = { db: flooded.db, clock: createTestClock(), hashCost: 'production' } as unknown as TestApi
      await seedUser(facade, { email: 'person@example.com', password })
      const signIn = (body: object) =>
        fetch(`${flooded.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() }))
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => signIn({ email: `ghost.${i}@example.com`, password: 'guess 12345' })),
      )
      const refused = answers.filter((a) => a.status === 429)
      expect(refused.length).toBeGreaterThan(0)
      for (const a of refused)
        expect(a.body).toEqual({ code: Code.TOO_MANY_REQUESTS, msg: 'Too many requests, please try again later', data: null })
      for (const a of answers.filter((x) => x.status !== 429)) expect(a.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
      expect((await signIn({ email: 'person@example.com', password })).body.code).toBe(Code.OK)
    } finally {
      await flooded.close()
      await database.drop()
    }
  })
})
