import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { createHashGate, type HashGate } from '../../api/lib/hash-gate'
import { createLogger } from '../../api/lib/logger'
import { createMemoryMailer } from '../../api/lib/mailer'
import { DEVICE_HEADER } from '../../api/lib/sign-in-place'
import { type RunningApi, startApi } from '../../api/server'
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

/**
 * The api on a throw-away database with a one-slot gate whose strangers' line holds `maxQueue`,
 * limits high enough that only the gate refuses: started for one test, closed and dropped after.
 */
async function withGatedApi(maxQueue: number, test: (api: RunningApi, seed: TestApi) => Promise<void>) {
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
    hashGate: { slots: 1, maxQueue, maxWaitMs: 60_000 },
    config: { authRateLimit: 100_000, loginFailLimit: 100_000 },
  })
  try {
    await test(api, { db: api.db, clock, hashCost: 'test' } as unknown as TestApi)
  } finally {
    await api.close()
    await database.drop()
  }
}

/** A JSON POST to the api from `address` (the web's forwarded address), and from a browser's device id when given. */
const post = (api: RunningApi, path: string, body: object, address: string, device?: string) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(device && { [DEVICE_HEADER]: device }) },
    body: JSON.stringify(body),
  })

const signIn = (api: RunningApi, email: string, password: string, address: string, device?: string) =>
  post(api, '/auth/login', { email, password }, address, device)

/**
 * Fills a one-slot gate whose strangers' line holds two: the test holds the slot itself (no hash
 * that might end too soon on a fast machine or too late on a slow one), two strangers from fresh
 * /64s wait. Returns a release that lets the gate drain and waits for their answers.
 */
async function fillGate(api: RunningApi) {
  const slot = held()
  // The hasher's own gate (typed for metrics only): the slot is taken as a hash would take it.
  const holding = (api.deps.hasher.gate as HashGate).run(slot.work, 'stranger')
  const queued = [0, 1].map((i) => signIn(api, `ghost.q${i}@example.com`, 'nope', `2001:db8:${(0x500 + i).toString(16)}::1`))
  const giveUp = Date.now() + 20_000
  while (!api.deps.hasher.full('stranger')) {
    if (Date.now() > giveUp) throw new Error('the gate never filled')
    await new Promise((r) => setTimeout(r, 5))
  }
  return async () => {
    slot.release()
    await Promise.all([holding, ...queued])
  }
}

/** Whether the address limiter counted anything for this address (a query the request cost). */
const counted = async (api: RunningApi, addressPrefix: string) =>
  (await api.db.selectFrom('rate_limits').select('key').execute()).some((r) => r.key.includes(addressPrefix))

const expectTurnedAway = async (answer: Response) => {
  expect(answer.status).toBe(429)
  expect(answer.headers.get('retry-after')).toBeNull()
  expect(await answer.json()).toMatchObject({ code: Code.TOO_MANY_REQUESTS, msg: 'Too many requests, please try again later' })
}

describe('a full gate turns strangers away before any database work', () => {
  it("a stranger's sign-in is refused (429, try again later, no Retry-After) without a query; a known place still signs in", async () => {
    await withGatedApi(2, async (api, seed) => {
      const password = 'a person who signs in'
      await seedUser(seed, { email: 'known@example.com', password })
      expect((await (await signIn(api, 'known@example.com', password, '2001:db8:beef:1::10')).json()).code).toBe(Code.OK)

      const release = await fillGate(api)
      await expectTurnedAway(await signIn(api, 'ghost.fresh@example.com', 'nope', '2001:db8:7777:1::1'))
      // Not even the address limiter's counter was written for it; the strangers queued before were counted.
      expect(await counted(api, '2001:db8:7777:1')).toBe(false)
      expect(await counted(api, '2001:db8:500')).toBe(true)

      // The person at home (a known place) is not turned away: served ahead of the queued strangers.
      const answered = signIn(api, 'known@example.com', password, '2001:db8:beef:1::99')
      await release()
      expect((await answered).status).toBe(200)
    })
  })

  it('register and password reset from a stranger are turned away the same way; a known device goes on', async () => {
    await withGatedApi(2, async (api, seed) => {
      const password = 'a person who signs in'
      const device = 'a-browser-device-id-of-the-person'
      await seedUser(seed, { email: 'known@example.com', password })
      expect((await (await signIn(api, 'known@example.com', password, '2001:db8:beef:1::10', device)).json()).code).toBe(Code.OK)

      const release = await fillGate(api)
      const body = { email: 'ghost.new@example.com', password: 'a new long passphrase', verifyCode: '123456' }
      // Routes ignore case and a trailing slash, and so does the guard.
      const calls = ['/auth/register', '/auth/resetPassword', '/AUTH/Register/']
      for (const [i, path] of calls.entries()) {
        const address = `2001:db8:${(0x7700 + i).toString(16)}:1::1`
        await expectTurnedAway(await post(api, path, body, address))
        expect(await counted(api, `2001:db8:${(0x7700 + i).toString(16)}:1`), path).toBe(false)
      }

      // The person's own browser, from a new address, is not shed: it reaches the limiter (and the gate, where it is served first).
      await post(api, '/auth/resetPassword', { ...body, email: 'known@example.com' }, '2001:db8:9999:1::1', device)
      expect(await counted(api, '2001:db8:9999:1')).toBe(true)
      await release()
    })
  })
})

describe('signing in during a flood from one /64 per request', () => {
  it('the person at an address they signed in from before is served ahead of the queued strangers, the upgrade of their hash too, never 429', async () => {
    await withGatedApi(12, async (api, seed) => {
      const password = 'a person who signs in'
      await seedUser(seed, { email: 'person@example.com', password })

      const order: string[] = []
      const tracked = (who: string, email: string, pw: string, address: string) =>
        signIn(api, email, pw, address).then(async (r) => {
          const body = await r.json()
          order.push(r.status === 429 ? `${who}:429` : who)
          return { status: r.status, body }
        })
      const home = '2001:db8:aaaa:1::10'
      // The person signed in from home before: home (its /64) is a known place of theirs.
      const seeded = await seed.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'person@example.com')
        .executeTakeFirstOrThrow()
      expect((await tracked('person', 'person@example.com', password, home)).body.code).toBe(Code.OK)
      order.length = 0
      // Their hash is in an older cost again, so this sign-in hashes twice: the check and the upgrade.
      await seed.db.updateTable('users').set({ password_hash: seeded.password_hash }).where('email', '=', 'person@example.com').execute()

      // The test holds the one slot as a hash would (no slow hash that might end before the person
      // arrives on a loaded machine), and lets it go once the person waits in line.
      const gate = api.deps.hasher.gate as HashGate
      const slot = held()
      const holding = gate.run(slot.work, 'stranger')
      // The order the gate starts hashes in from here (answers may come back in another order: the
      // person's session is written after the hash, while a stranger's refusal is not).
      const started: string[] = []
      const run = gate.run.bind(gate)
      gate.run = (work, priority) =>
        run(() => {
          started.push(priority ?? 'stranger')
          return work()
        }, priority)
      const flood = Array.from({ length: 60 }, (_, i) =>
        tracked('stranger', `ghost.${i}@example.com`, 'not the password', `2001:db8:${(0x100 + i).toString(16)}:${i}::1`),
      )
      // Every stranger past the line of 12 refused: the whole flood has arrived and 12 wait.
      const giveUp = Date.now() + 20_000
      while (order.filter((o) => o === 'stranger:429').length < 60 - 12) {
        if (Date.now() > giveUp) throw new Error(`the flood did not queue behind the held slot: ${order.join(' ')}`)
        await new Promise((r) => setTimeout(r, 2))
      }
      expect(gate.waiting).toBe(12)
      const person = tracked('person', 'person@example.com', password, '2001:db8:aaaa:1::99')
      while (gate.waiting < 13) {
        if (Date.now() > giveUp || order.includes('person')) throw new Error(`the person did not queue: ${order.join(' ')}`)
        await new Promise((r) => setTimeout(r, 2))
      }
      slot.release()
      const answer = await person
      await Promise.all([holding, ...flood])
      expect(answer.status).toBe(200)
      expect(answer.body.code).toBe(Code.OK)
      // The person's check; the first queued stranger, who takes the slot the moment it frees; then
      // the upgrade of the person's hash, in the person's turn ahead of the other eleven (as a
      // stranger's it would queue behind them all).
      expect(started).toEqual(['trusted', 'stranger', 'trusted', ...Array(11).fill('stranger')])
      const upgraded = await seed.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'person@example.com')
        .executeTakeFirstOrThrow()
      expect(upgraded.password_hash).not.toBe(seeded.password_hash)
    })
  })
})
