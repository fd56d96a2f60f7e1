import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { peopleDeskApi } from '#contract/ops/people'
import { useTestApi } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/** The dashboard's "paid out" today: what the banks received, on the suite's database (SQLite or PostgreSQL). */
const api = useTestApi()

async function board() {
  const staff = await seedStaff(api, { role: 'payouts' })
  const res = await api.get('/admin/dashboard', { headers: bearer(staff.token) })
  expect(res.body.code, res.text).toBe(Code.OK)
  return peopleDeskApi.dashboard.data.parse(res.body.data).today
}

async function pay(id: string) {
  const staff = await seedStaff(api, { role: 'payouts' })
  for (const body of [
    { id, status: 'processing' },
    { id, status: 'success', reference: `NIP-${id.slice(0, 8)}` },
  ]) {
    const res = await api.post('/admin/withdraw/update', body, { headers: bearer(staff.token) })
    expect(res.body.code, res.text).toBe(Code.OK)
  }
}

describe('GET /admin/dashboard today.paidOut', () => {
  it('is the sum the banks received (each amount less its fee), once a withdrawal', async () => {
    const before = await board()
    const payer = await walletUser(api, { balance: 5_000_000 })
    const first = (await withdraw(api, payer, 1_000_000)).body.data
    const second = (await withdraw(api, payer, 250_000)).body.data
    expect(first.fee).toBeGreaterThan(0)
    await pay(first.id)
    await pay(second.id)
    // Unpaid withdrawals count for nothing.
    await withdraw(api, payer, 300_000)
    const after = await board()
    expect(after.withdrawalsPaid).toBe(before.withdrawalsPaid! + 2)
    expect(after.paidOut).toBe(before.paidOut! + (first.amount - first.fee) + (second.amount - second.fee))
    expect(after.paidOut).toBe(before.paidOut! + first.received + second.received)
  })
})
