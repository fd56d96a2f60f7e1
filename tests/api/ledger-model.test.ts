import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import type { Withdrawal } from '#contract/withdrawals'
import { auditBooks } from '../../api/services/ledger'
import { useTestApi } from '../support/kit'
import { admin, requestId, walletInfo, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * Model-based test of the wallet (fast-check command sequences against an in-memory model):
 * credit, withdraw, retry a withdrawal with its key, pay, fail, debit. After every command the
 * real wallet equals the model; after every run the books balance. ≥ 500 runs on each database.
 */
const api = useTestApi({ web: false })
const RUNS = Number(process.env.LEDGER_MODEL_RUNS ?? 500)
const MIN = 100_000

type Model = {
  balance: number
  frozen: number
  pending: { id: string; amount: number; status: 'pending' | 'processing' }[]
  last?: { key: string; amount: number; id: string }
}
type Real = { u: WalletUser }

const check = async (m: Model, r: Real) => {
  const info = await walletInfo(api, r.u.token)
  expect({ balance: info.balance, frozen: info.frozen }).toEqual({ balance: m.balance, frozen: m.frozen })
}

class Credit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly amount: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await admin(api).post('/admin/wallet/adjust', {
      userId: r.u.userId,
      amount: this.amount,
      reason: 'model credit',
      requestId: requestId(),
    })
    expect(res.body.code).toBe(200)
    m.balance += this.amount
    await check(m, r)
  }
  toString = () => `credit(${this.amount})`
}

class Debit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly amount: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const res = await admin(api).post('/admin/wallet/adjust', {
      userId: r.u.userId,
      amount: -this.amount,
      reason: 'model debit',
      requestId: requestId(),
    })
    if (this.amount > m.balance) expect(res.body.code).toBe(Refusals.ADJUSTMENT_TOO_LARGE.code)
    else {
      expect(res.body.code).toBe(200)
      m.balance -= this.amount
    }
    await check(m, r)
  }
  toString = () => `debit(${this.amount})`
}

class Withdraw implements fc.AsyncCommand<Model, Real> {
  constructor(readonly amount: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const key = requestId()
    const res = await withdraw(api, r.u, this.amount, { requestId: key })
    if (this.amount > m.balance) expect(res.body.code).toBe(Refusals.INSUFFICIENT_BALANCE.code)
    else {
      expect(res.body.code).toBe(200)
      m.balance -= this.amount
      m.frozen += this.amount
      m.pending.push({ id: res.body.data.id, amount: this.amount, status: 'pending' })
      m.last = { key, amount: this.amount, id: res.body.data.id }
    }
    await check(m, r)
  }
  toString = () => `withdraw(${this.amount})`
}

class Retry implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.last !== undefined
  async run(m: Model, r: Real) {
    const res = await withdraw(api, r.u, m.last!.amount, { requestId: m.last!.key })
    expect(res.body.code).toBe(200)
    expect(res.body.data.id).toBe(m.last!.id)
    await check(m, r)
  }
  toString = () => 'retry'
}

class Settle implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly outcome: 'processing' | 'success' | 'failed',
  ) {}
  check = (m: Readonly<Model>) => m.pending.length > 0
  async run(m: Model, r: Real) {
    const w = m.pending[this.pick % m.pending.length]
    const body = {
      id: w.id,
      status: this.outcome,
      ...(this.outcome === 'success' && { reference: 'REF-1' }),
      ...(this.outcome === 'failed' && { reason: 'bank said no' }),
    }
    const res = await admin(api).post<Withdrawal>('/admin/withdraw/update', body)
    if (this.outcome === 'success' && w.status === 'pending') {
      // Paid only once it is processing: the move is refused and nothing changes.
      expect(res.body.code).toBe(Refusals.WITHDRAWAL_BAD_MOVE.code)
      return check(m, r)
    }
    expect(res.body.code).toBe(200)
    if (this.outcome === 'processing') w.status = 'processing'
    else {
      m.frozen -= w.amount
      if (this.outcome === 'failed') m.balance += w.amount
      m.pending.splice(m.pending.indexOf(w), 1)
    }
    await check(m, r)
  }
  toString = () => `settle(${this.pick}, ${this.outcome})`
}

const amount = fc.integer({ min: MIN, max: 600_000 })
const commands = [
  amount.map((a) => new Credit(a)),
  fc.integer({ min: 1, max: 400_000 }).map((a) => new Debit(a)),
  amount.map((a) => new Withdraw(a)),
  fc.constant(new Retry()),
  fc.tuple(fc.nat(), fc.constantFrom('processing' as const, 'success' as const, 'failed' as const)).map(([p, o]) => new Settle(p, o)),
]

describe('the wallet against its model', () => {
  it(`${RUNS} random command sequences keep the wallet equal to the model and the books balanced`, async () => {
    const started = performance.now()
    let steps = 0
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 8 }), async (cmds) => {
        const u = await walletUser(api)
        const model: Model = { balance: 0, frozen: 0, pending: [] }
        steps += [...cmds].length
        await fc.asyncModelRun(() => ({ model, real: { u } }), cmds)
      }),
      { numRuns: RUNS },
    )
    expect(await auditBooks(api.db)).toEqual([])
    console.info(`[figures] ${api.dbKind}: ${RUNS} model runs, ${steps} commands, ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }, 600_000)
})
