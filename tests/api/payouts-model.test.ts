import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { auditBooks } from '../../api/services/ledger'
import { runPayoutsOnce } from '../../api/services/payouts'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack, type Trouble } from '../support/paystack-fake'
import { walletInfo, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * The ledger's model test with a provider that answers anything in any order (decision 038):
 * fast-check sequences of withdrawals, worker passes, clock moves, troubles on the next call
 * (5xx, 429, a refusal we cannot read, a lost answer, verify's lag) and Paystack changing a
 * transfer to any state, with or without its webhook. After every step: the books balance, the
 * hold is exactly the open withdrawals, no reference makes two transfers, and money came back to
 * the wallet only when Paystack says the transfer did not deliver it (or a conflict is on the desk).
 */
const fake = await startFakePaystack()
const api = useTestApi({
  web: false,
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: 1e12,
      pollSeconds: 30,
      requestTimeoutMs: 300,
      leaseMs: 5_000,
      notFoundGraceMs: 120_000,
      unknownLimitMs: 600_000,
    },
  },
})
const RUNS = Number(process.env.PAYOUTS_MODEL_RUNS ?? 25)
const AMOUNT = 200_000
const NOT_DELIVERED = new Set(['failed', 'reversed', 'abandoned'])

beforeAll(() => {
  fake.webhookUrl = `${api.url}/v1/webhooks/paystack`
})
afterAll(() => fake.close())

type Real = { u: WalletUser; ids: string[] }
type Model = Record<string, never>

async function invariants(r: Real) {
  expect(await auditBooks(api.db)).toEqual([])
  const rows = r.ids.length ? await api.db.selectFrom('withdrawals').selectAll().where('id', 'in', r.ids).execute() : []
  const open = rows.filter((w) => w.status === 'pending' || w.status === 'processing').reduce((s, w) => s + Number(w.amount), 0)
  expect((await walletInfo(api, r.u.token)).frozen).toBe(open)
  for (const w of rows) {
    expect(fake.transferCalls.filter((c) => c.reference === w.id && c.made).length).toBeLessThanOrEqual(1)
    const t = fake.transfers.get(w.id)
    if ((w.status === 'failed' || w.status === 'reversed') && w.payout_conflict === null)
      expect(t === undefined || NOT_DELIVERED.has(t.status), `${w.id}: refunded while Paystack says ${t?.status}`).toBe(true)
  }
}

const cmd = (name: string, run: (r: Real) => Promise<void>): fc.AsyncCommand<Model, Real> => ({
  check: () => true,
  async run(_m, r) {
    await run(r)
    await invariants(r)
  },
  toString: () => name,
})

const troubles: Trouble[] = [
  { kind: '5xx' },
  { kind: '429', retryAfter: 60 },
  { kind: 'refuse', status: 400 },
  { kind: 'timeout', after: true },
  { kind: 'timeout' },
]
const commands = [
  fc.constant(
    cmd('withdraw', async (r) => {
      const res = await withdraw(api, r.u, AMOUNT)
      if (res.body.code === 200) r.ids.push(res.body.data.id)
    }),
  ),
  fc.constant(cmd('pass', async () => void (await runPayoutsOnce(api.deps)))),
  fc.integer({ min: 1, max: 3_600 }).map((s) => cmd(`advance(${s}s)`, async () => void api.clock.advance(s * 1000))),
  fc
    .tuple(fc.constantFrom('transfer' as const, 'verify' as const, 'recipient' as const), fc.constantFrom(...troubles))
    .map(([route, t]) => cmd(`trouble(${route}, ${JSON.stringify(t)})`, async () => fake.trouble(route, t))),
  fc.boolean().map((on) => cmd(`verifyLag(${on})`, async () => void (fake.verifyLagMs = on ? 1e9 : 0))),
  fc
    .tuple(fc.nat(), fc.constantFrom('success' as const, 'failed' as const, 'reversed' as const, 'abandoned' as const), fc.boolean())
    .map(([pick, status, hook]) =>
      cmd(`paystack(${pick}, ${status}, webhook ${hook})`, async (r) => {
        const made = r.ids.filter((id) => fake.transfers.has(id))
        if (!made.length) return
        await fake.settle(made[pick % made.length], status, { webhooks: hook ? 1 : 0 })
      }),
    ),
]

describe('payouts against a provider that answers anything in any order', () => {
  it(`${RUNS} random sequences: books balanced, holds exact, one transfer a reference, no refund Paystack does not confirm`, async () => {
    // Conflicts are logged at error on purpose here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const started = performance.now()
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 14 }), async (cmds) => {
        fake.verifyLagMs = 0
        const u = await walletUser(api, { balance: 2_000_000, userName: 'Adaeze Obi' })
        const real: Real = { u, ids: [] }
        await fc.asyncModelRun(() => ({ model: {} as Model, real }), cmds)
        // Whatever happened, Paystack's troubles end and the worker keeps asking: no payout is lost.
        fake.verifyLagMs = 0
        for (let i = 0; i < 6; i++) {
          api.clock.advance(3_600_000)
          await runPayoutsOnce(api.deps)
        }
        await invariants(real)
      }),
      { numRuns: RUNS },
    )
    console.info(`[figures] ${api.dbKind}: ${RUNS} provider model runs in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }, 600_000)
})
