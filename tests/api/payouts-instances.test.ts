import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type ApiConfig, type RunningApi } from '../../api/server'
import { auditBooks } from '../../api/services/ledger'
import { runPayoutsOnce } from '../../api/services/payouts'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { walletUser, withdraw } from '../support/wallet'

/**
 * Two api instances on one database (PostgreSQL with TEST_DB=postgres; SQLite's file otherwise),
 * each with its own pool and its own payout worker passes, racing over 200 withdrawals: each is
 * paid exactly once, and the books balance.
 */
const fake = await startFakePaystack()
const payouts: Partial<ApiConfig['payouts']> = {
  provider: 'paystack',
  paystackSecretKey: FAKE_PAYSTACK_SECRET,
  paystackBaseUrl: fake.url,
  autoPayoutMax: 1e12,
  pollSeconds: 60,
  requestTimeoutMs: 5_000,
  leaseMs: 30_000,
}
const api = useTestApi({ web: false, config: { payouts } })
let second: RunningApi

beforeAll(async () => {
  fake.answerWith = 'success'
  second = await startApi({
    env: {} as NodeJS.ProcessEnv,
    databaseUrl: api.deps.config.databaseUrl,
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
    now: api.clock.now,
    housekeeping: false,
    payoutWorker: false,
    hashCost: 'test',
    migrate: false,
    config: { payouts },
  })
})
afterAll(async () => {
  await second?.close()
  await fake.close()
})

describe('two api instances on one database', () => {
  it('pay 200 withdrawals, each exactly once', async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => walletUser(api, { balance: 3_000_000, userName: 'Adaeze Obi' })))
    const ids = (
      await Promise.all(
        people.map(async (u) => {
          const mine: string[] = []
          for (let i = 0; i < 20; i++) mine.push((await withdraw(api, u, 100_000)).body.data.id)
          return mine
        }),
      )
    ).flat()
    expect(new Set(ids).size).toBe(200)

    const claimed = { first: 0, second: 0 }
    const started = performance.now()
    for (let round = 0; round < 50 && ids.some((id) => !fake.transfers.has(id)); round++) {
      const [a, b] = await Promise.all([runPayoutsOnce(api.deps), runPayoutsOnce(second.deps)])
      claimed.first += a.claimed
      claimed.second += b.claimed
    }
    const ms = performance.now() - started

    for (const id of ids)
      expect(
        fake.transferCalls.filter((c) => c.reference === id && c.made),
        id,
      ).toHaveLength(1)
    const rows = await api.db.selectFrom('withdrawals').select(['id', 'status']).where('id', 'in', ids).execute()
    expect(rows.every((r) => r.status === 'success')).toBe(true)
    const paid = await api.db
      .selectFrom('balance_logs')
      .select('ref_id')
      .where('type', '=', 'withdraw_paid')
      .where('ref_id', 'in', ids)
      .execute()
    expect(paid).toHaveLength(200)
    expect(claimed.first).toBeGreaterThan(0)
    expect(claimed.second).toBeGreaterThan(0)
    expect(await auditBooks(api.db)).toEqual([])
    const attempts = fake.transferCalls.filter((c) => ids.includes(c.reference)).length
    console.info(
      `[figures] ${api.dbKind}: two instances paid 200 withdrawals in ${ms.toFixed(0)} ms (${((200 / ms) * 1000).toFixed(0)} payouts/s); claims ${claimed.first} + ${claimed.second}; ${attempts} transfer calls`,
    )
  }, 120_000)
})
