import { describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import type { BalanceLogEntry } from '#contract/wallet'
import { auditBooks } from '../../api/services/ledger'
import { useTestApi } from '../support/kit'
import { requestId, walletInfo, walletUser, withdraw, withdrawRetryingBusy } from '../support/wallet'

/**
 * Races through HTTP, on SQLite and PostgreSQL (TEST_DB): many withdrawals at once never take
 * more than the balance, one key is one hold, and the log always sums to the balance.
 */
const api = useTestApi({ web: false })

describe('parallel withdrawals', () => {
  it('100 at once with distinct keys: exactly ⌊B/a⌋ succeed, the rest are refused, nothing is lost', async () => {
    const B = 1_050_000
    const a = 100_000
    const u = await walletUser(api, { balance: B })
    const started = performance.now()
    const results = await Promise.all(Array.from({ length: 100 }, () => withdrawRetryingBusy(api, u, a)))
    const ms = performance.now() - started
    const ok = results.filter((r) => r.body.code === 200)
    const refused = results.filter((r) => r.body.code === Refusals.INSUFFICIENT_BALANCE.code)
    expect(ok).toHaveLength(Math.floor(B / a))
    expect(refused).toHaveLength(100 - Math.floor(B / a))
    expect(results.every((r) => r.status === 200)).toBe(true)
    const info = await walletInfo(api, u.token)
    expect(info.balance + info.frozen).toBe(B)
    expect(info.frozen).toBe(Math.floor(B / a) * a)
    const log = (await api.get<{ list: BalanceLogEntry[]; total: number }>('/v1/user/pageBalanceLog?pageSize=50', { token: u.token })).body
      .data
    expect(log.total).toBe(1 + Math.floor(B / a))
    expect(log.list.reduce((sum, e) => sum + e.amount, 0)).toBe(info.balance)
    expect(await auditBooks(api.db)).toEqual([])
    console.info(`[figures] ${api.dbKind}: 100 parallel withdrawals settled in ${ms.toFixed(0)} ms`)
    // One person's PIN checks run one at a time, so a loaded machine needs longer than the default.
  }, 90_000)

  it('50 at once with one key: one hold, and every answer is that withdrawal', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const key = requestId()
    const results = await Promise.all(Array.from({ length: 50 }, () => withdrawRetryingBusy(api, u, 200_000, { requestId: key })))
    expect(results.map((r) => r.body.code)).toEqual(Array(50).fill(200))
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 800_000, frozen: 200_000 })
  })

  it('one key with two amounts at once: one hold, the other refused', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const key = requestId()
    const results = await Promise.all([
      withdrawRetryingBusy(api, u, 200_000, { requestId: key }),
      withdrawRetryingBusy(api, u, 300_000, { requestId: key }),
    ])
    const codes = results.map((r) => r.body.code).sort()
    expect(codes).toEqual([200, Refusals.IDEMPOTENCY_KEY_REUSED.code])
    const info = await walletInfo(api, u.token)
    expect(info.balance + info.frozen).toBe(1_000_000)
    expect([200_000, 300_000]).toContain(info.frozen)
  })

  it('credits and withdrawals of many people at once keep every wallet equal to its log', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => walletUser(api, { balance: 500_000 })))
    const { admin } = await import('../support/wallet')
    await Promise.all(
      people.flatMap((u) => [
        withdraw(api, u, 150_000),
        withdraw(api, u, 150_000),
        admin(api).post('/admin/wallet/adjust', { userId: u.userId, amount: 70_000, reason: 'bonus', requestId: requestId() }),
        withdraw(api, u, 150_000),
        withdraw(api, u, 150_000),
      ]),
    )
    expect(await auditBooks(api.db)).toEqual([])
    for (const u of people) {
      const info = await walletInfo(api, u.token)
      expect(info.balance + info.frozen).toBe(570_000)
      expect(info.balance).toBeGreaterThanOrEqual(0)
    }
  })
})
