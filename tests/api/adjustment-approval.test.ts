import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { opsMoneyApi } from '#contract/ops/money'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'
import { requestId, walletInfo } from '../support/wallet'

/** Maker-checker: an adjustment over ADJUSTMENT_APPROVAL_MIN moves money only when a second admin approves. */
const api = useTestApi({ web: false })

const MIN = 100_000_000 // the default ADJUSTMENT_APPROVAL_MIN (₦1,000,000)

async function adminSession() {
  const s = await seedStaff(api, { role: 'admin' })
  const headers = bearer(s.token)
  return {
    actor: `staff:${s.email}`,
    adjust: (userId: string, amount: number, id = requestId()) =>
      api.post('/admin/wallet/adjust', { userId, amount, reason: 'Large goodwill credit', requestId: id }, { headers }),
    pending: () => api.get('/admin/wallet/adjust/pending', { headers }),
    approve: (id: string) => api.post('/admin/wallet/adjust/approve', { id }, { headers }),
    decline: (id: string) => api.post('/admin/wallet/adjust/decline', { id }, { headers }),
  }
}

const person = async () => {
  const { user, token } = await seedUser(api, { email: newEmail('adjusted') })
  return { userId: user.id, token }
}

describe('maker-checker', () => {
  it('up to the threshold the money moves at once; over it, nothing moves until another admin approves, once', async () => {
    const [maker, checker] = [await adminSession(), await adminSession()]
    const p = await person()
    const small = opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN)).body.data)
    expect(small).toMatchObject({ type: 'adjustment', amount: MIN })
    expect((await walletInfo(api, p.token)).balance).toBe(MIN)

    const key = requestId()
    const asked = opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN + 1, key)).body.data)
    expect(asked).toMatchObject({ type: 'adjustment_request', status: 'pending', maker: maker.actor, amount: MIN + 1 })
    // The same requestId again: the same request, nothing more.
    expect((await maker.adjust(p.userId, MIN + 1, key)).body.data).toMatchObject({ id: asked.type === 'adjustment_request' && asked.id })
    expect((await walletInfo(api, p.token)).balance).toBe(MIN)
    const waiting = opsMoneyApi.pendingAdjustments.data.parse((await checker.pending()).body.data)
    expect(waiting.map((r) => r.requestId)).toContain(key)
    const id = asked.type === 'adjustment_request' ? asked.id : ''

    // The maker cannot approve their own.
    expect((await maker.approve(id)).body).toMatchObject(Refusals.ADJUSTMENT_OWN)
    expect((await walletInfo(api, p.token)).balance).toBe(MIN)

    // Another admin approves: the money moves once, even approved again and in parallel.
    const approvals = await Promise.all([checker.approve(id), checker.approve(id), checker.approve(id)])
    for (const a of approvals) expect(a.body.code, a.text).toBe(Code.OK)
    expect(new Set(approvals.map((a) => opsMoneyApi.approveAdjustment.data.parse(a.body.data).id)).size).toBe(1)
    expect((await walletInfo(api, p.token)).balance).toBe(2 * MIN + 1)
    const entries = await api.db.selectFrom('balance_logs').selectAll().where('ref_id', '=', key).execute()
    expect(entries).toHaveLength(1)

    // Both names in the audit log.
    const log = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', p.userId)
      .where('action', '=', 'wallet.adjust')
      .execute()
    const approved = log.find((e) => e.actor === checker.actor)!
    expect(JSON.parse(approved.after_json!)).toMatchObject({ maker: maker.actor, checker: checker.actor })
    expect((await checker.decline(id)).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
  })

  it('a declined request moves nothing and cannot be approved; a debit that passes the balance by approval time stays pending', async () => {
    const [maker, checker] = [await adminSession(), await adminSession()]
    const p = await person()
    const asked = opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN * 2)).body.data)
    const id = asked.type === 'adjustment_request' ? asked.id : ''
    expect(opsMoneyApi.declineAdjustment.data.parse((await checker.decline(id)).body.data)).toMatchObject({
      status: 'declined',
      checker: checker.actor,
    })
    expect((await checker.approve(id)).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
    expect((await walletInfo(api, p.token)).balance).toBe(0)

    // Enough now; spent before the checker comes: the approval is refused and the request waits.
    const [other, another] = [await adminSession(), await adminSession()]
    await other.adjust(p.userId, MIN)
    await another.adjust(p.userId, 5)
    const debit = opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, -(MIN + 5))).body.data)
    const debitId = debit.type === 'adjustment_request' ? debit.id : ''
    await another.adjust(p.userId, -10)
    expect((await checker.approve(debitId)).body).toMatchObject(Refusals.ADJUSTMENT_TOO_LARGE)
    expect(opsMoneyApi.pendingAdjustments.data.parse((await checker.pending()).body.data).map((r) => r.id)).toContain(debitId)
    expect((await checker.approve('nope')).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
  })

  it('a reviewer or payouts person can neither ask nor approve', async () => {
    const p = await person()
    const maker = await adminSession()
    const asked = opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN + 1)).body.data)
    for (const role of ['reviewer', 'payouts'] as const) {
      const s = await seedStaff(api, { role })
      expect(
        (
          await api.post(
            '/admin/wallet/adjust/approve',
            { id: asked.type === 'adjustment_request' && asked.id },
            { headers: bearer(s.token) },
          )
        ).status,
      ).toBe(403)
    }
  })
})
