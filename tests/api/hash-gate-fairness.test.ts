import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { createHashGate } from '../../api/lib/hash-gate'
import { createLogger } from '../../api/lib/logger'
import { createMemoryMailer } from '../../api/lib/mailer'
import { startApi } from '../../api/server'
import { createTestClock, seedUser, type TestApi } from '../support/api'
import { createTestDatabase } from '../support/db'

/**
 * Fair sharing of the hash gate (api/lib/hash-gate.ts): a caller the api knows (a device or
 * address this person signed in from before) is served before strangers, and a flood of strangers
 * from fresh IPv6 /64s fills only the strangers' line. Order, never time, is asserted.
 */

/** A piece of work that runs until the test lets it finish. */
function held() {
  let release!: () => void
  const done = new Promise<void>((r) => (release = r))
  return { work: () => done, release }
}

const tick = () => new Promise((r) => setImmediate(r))

describe('the gate', () => {
  it('serves a trusted waiter before strangers who queued earlier; strangers keep their order', async () => {
    const gate = createHashGate({ slots: 1, maxQueue: 10, maxWaitMs: 60_000 })
    const first = held()
    const started: string[] = []
    const runs = [gate.run(first.work, 'stranger')]
    const job = (name: string) => async () => {
      started.push(name)
    }
    for (const name of ['s1', 's2', 's3']) runs.push(gate.run(job(name), 'stranger'))
    runs.push(gate.run(job('t1'), 'trusted'))
    runs.push(gate.run(job('s4'))) // a caller that does not say is a stranger
    runs.push(gate.run(job('t2'), 'trusted'))
    expect(gate.waiting).toBe(6)
    first.release()
    await Promise.all(runs)
    expect(started).toEqual(['t1', 't2', 's1', 's2', 's3', 's4'])
  })

  it("a full strangers' line refuses strangers with 429 but never a trusted caller", async () => {
    const gate = createHashGate({ slots: 1, maxQueue: 2, maxWaitMs: 60_000 })
    const first = held()
    const runs = [gate.run(first.work, 'stranger'), gate.run(async () => 's1'), gate.run(async () => 's2')]
    const refused = await gate.run(async () => 's3').catch((e: { status?: number; code?: number }) => e)
    expect(refused).toMatchObject({ status: 429, code: Code.TOO_MANY_REQUESTS })
    const trusted = gate.run(async () => 'person', 'trusted')
    await tick()
    expect(gate.waiting).toBe(3)
    first.release()
    expect(await trusted).toBe('person')
    await Promise.all(runs)
    expect(gate.running).toBe(0)
  })
})

describe('strangers never hold every slot', () => {
  it('with two slots a stranger takes one: a trusted caller starts at once while strangers wait', async () => {
    const gate = createHashGate({ slots: 2, maxQueue: 1, maxWaitMs: 60_000 })
    const first = held()
    const runs = [gate.run(first.work, 'stranger')]
    let strangerStarted = false
    runs.push(gate.run(async () => void (strangerStarted = true), 'stranger'))
    await tick()
    expect(gate.running).toBe(1)
    expect(strangerStarted).toBe(false)
    // The strangers' line is full and every slot a stranger may take is busy: the next would be refused.
    expect(gate.full('stranger')).toBe(true)
    expect(gate.full('trusted')).toBe(false)
    let personStarted = false
    const person = gate.run(async () => void (personStarted = true), 'trusted')
    await tick()
    expect(personStarted).toBe(true)
    await person
    first.release()
    await Promise.all(runs)
    expect(strangerStarted).toBe(true)
    expect(gate.full('stranger')).toBe(false)
  })
})

describe('a full gate turns strangers away before any database work', () => {
  it("a stranger's sign-in is refused (429, try again later, no Retry-After) without a query; a known place still signs in", async () => {
    const database = await createTestDatabase()
    const clock = createTestClock()
    const api = await startApi({
      env: {} as NodeJS.ProcessEnv,
      databaseUrl: database.url,
      port: 0,
      mailer: createMemoryMailer(),
      logger: createLogger('silent'),
      now: clock.now,
      housekeeping: false,
      hashGate: { slots: 1, maxQueue: 2, maxWaitMs: 60_000 },
      config: { authRateLimit: 100_000, loginFailLimit: 100_000 },
    })
    try {
      const password = 'a person who signs in'
      const facade = { db: api.db, clock, hashCost: 'test' } as unknown as TestApi
      await seedUser(facade, { email: 'known@example.com', password })
      const { user: slow } = await seedUser(facade, { email: 'slow.shed@example.com' })
      // A hash slow enough (scrypt N=2^17, about half a second) that the strangers queue behind it on any database.
      const slowHash = ['scrypt', 17, 8, 16, randomBytes(16).toString('base64url'), randomBytes(32).toString('base64url')].join('$')
      await api.db.updateTable('users').set({ password_hash: slowHash }).where('id', '=', slow.id).execute()
      const signIn = (email: string, pw: string, address: string) =>
        fetch(`${api.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ email, password: pw }),
        })
      const home = '2001:db8:beef:1::10'
      expect((await (await signIn('known@example.com', password, home)).json()).code).toBe(Code.OK)

      const blocker = signIn('slow.shed@example.com', 'a guess', '192.0.2.1')
      const queued = [0, 1].map((i) => signIn(`ghost.q${i}@example.com`, 'nope', `2001:db8:${(0x500 + i).toString(16)}::1`))
      const giveUp = Date.now() + 20_000
      while (!api.deps.hasher.full('stranger')) {
        if (Date.now() > giveUp) throw new Error('the gate never filled')
        await new Promise((r) => setTimeout(r, 5))
      }
      const fresh = '2001:db8:7777:1::1'
      const refused = await signIn('ghost.fresh@example.com', 'nope', fresh)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBeNull()
      expect(await refused.json()).toMatchObject({ code: Code.TOO_MANY_REQUESTS, msg: 'Too many requests, please try again later' })
      // Not even the address limiter's counter was written for it.
      const rows = await api.db.selectFrom('rate_limits').select('key').execute()
      expect(rows.some((r) => r.key.includes('2001:db8:7777:1'))).toBe(false)
      expect(rows.some((r) => r.key.includes('2001:db8:500'))).toBe(true)

      // The person at home (a known place) is not turned away: served ahead of the queued strangers.
      const person = signIn('known@example.com', password, '2001:db8:beef:1::99')
      const answered = await person
      expect(answered.status).toBe(200)
      await Promise.all([blocker, ...queued])
    } finally {
      await api.close()
      await database.drop()
    }
  })
})

describe('signing in during a flood from one /64 per request', () => {
  it('the person at an address they signed in from before is answered ahead of every queued stranger, never 429', async () => {
    const database = await createTestDatabase()
    const clock = createTestClock()
    const api = await startApi({
      env: {} as NodeJS.ProcessEnv,
      databaseUrl: database.url,
      port: 0,
      mailer: createMemoryMailer(),
      logger: createLogger('silent'),
      now: clock.now,
      housekeeping: false,
      hashGate: { slots: 1, maxQueue: 12, maxWaitMs: 60_000 },
      config: { authRateLimit: 100_000, loginFailLimit: 100_000 },
    })
    try {
      const password = 'a person who signs in'
      const facade = { db: api.db, clock, hashCost: 'test' } as unknown as TestApi
      await seedUser(facade, { email: 'person@example.com', password })
      // An old-format hash that takes seconds to check holds the one slot while the flood queues.
      const { user: slow } = await seedUser(facade, { email: 'slow@example.com' })
      const slowHash = ['scrypt', 15, 8, 16, randomBytes(16).toString('base64url'), randomBytes(32).toString('base64url')].join('$')
      await api.db.updateTable('users').set({ password_hash: slowHash }).where('id', '=', slow.id).execute()

      const order: string[] = []
      const signIn = (who: string, email: string, pw: string, address: string) =>
        fetch(`${api.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ email, password: pw }),
        }).then(async (r) => {
          const body = await r.json()
          order.push(r.status === 429 ? `${who}:429` : who)
          return { status: r.status, body }
        })
      const home = '2001:db8:aaaa:1::10'
      // The person signed in from home before: home (its /64) is a known place of theirs.
      expect((await signIn('person', 'person@example.com', password, home)).body.code).toBe(Code.OK)
      order.length = 0

      const blocker = signIn('blocker', 'slow@example.com', 'a guess', '192.0.2.1')
      await new Promise((r) => setTimeout(r, 300))
      const flood = Array.from({ length: 60 }, (_, i) =>
        signIn('stranger', `ghost.${i}@example.com`, 'not the password', `2001:db8:${(0x100 + i).toString(16)}:${i}::1`),
      )
      // Every stranger past the line of 12 refused: the whole flood has arrived and 12 wait.
      const giveUp = Date.now() + 20_000
      while (order.filter((o) => o === 'stranger:429').length < 60 - 12) {
        if (Date.now() > giveUp || order.includes('blocker'))
          throw new Error(`the flood did not queue behind the slow hash: ${order.join(' ')}`)
        await new Promise((r) => setTimeout(r, 2))
      }
      const person = await signIn('person', 'person@example.com', password, '2001:db8:aaaa:1::99')
      await Promise.all([blocker, ...flood])
      expect(person.status).toBe(200)
      expect(person.body.code).toBe(Code.OK)
      // The slow hash, then the person, then the twelve strangers who had queued before the person.
      expect(order.filter((o) => o !== 'stranger:429')).toEqual(['blocker', 'person', ...Array(12).fill('stranger')])
    } finally {
      await api.close()
      await database.drop()
    }
  })
})
