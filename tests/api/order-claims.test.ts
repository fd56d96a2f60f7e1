import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { reviewDeskApi, CLAIM_MS, type DeskOrder } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletInfo } from '../support/wallet'

/** Claims: one reviewer at a time, codes only to the holder (audited), a claim lapses and is taken over. */
const api = useSellingApi()

async function reviewer() {
  const s = await seedStaff(api, { role: 'reviewer' })
  const headers = bearer(s.token)
  return {
    actor: `staff:${s.email}`,
    claim: (id: string) => api.post<DeskOrder>('/admin/order/claim', { id }, { headers }),
    detail: (id: string) => api.get<DeskOrder>(`/admin/order/detail?id=${id}`, { headers }),
    complete: (id: string) => api.post<DeskOrder>('/admin/order/complete', { id }, { headers }),
    reject: (id: string) => api.post<DeskOrder>('/admin/order/reject', { id, reasonCode: 'FAKE_CARD' }, { headers }),
  }
}

async function anOrder() {
  const { token } = await seedUser(api, { email: newEmail('claims') })
  const code = newCode()
  const order = await sold(api, token, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
  return { token, code, order }
}

describe('claims', () => {
  it('of many reviewers claiming at once, exactly one wins; the others are told who holds it', async () => {
    const { order } = await anOrder()
    const team = await Promise.all(Array.from({ length: 8 }, () => reviewer()))
    const answers = await Promise.all(team.map((r) => r.claim(order.id)))
    const winners = answers.filter((a) => a.body.code === Code.OK)
    expect(winners).toHaveLength(1)
    const holder = team[answers.indexOf(winners[0])]
    for (const a of answers.filter((x) => x !== winners[0])) {
      expect(a.body.code).toBe(Refusals.ORDER_CLAIMED.code)
      expect(a.body.msg).toContain(`${holder.actor} is reviewing this order`)
    }
    // One "in review" message and one event, however many tried.
    const messages = await api.db
      .selectFrom('notifications')
      .selectAll()
      .where('ref_id', '=', order.id)
      .where('title', '=', 'Order in review')
      .execute()
    expect(messages).toHaveLength(1)
    const claims = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', order.id)
      .where('action', '=', 'order.claim')
      .execute()
    expect(claims).toHaveLength(1)
  })

  it('shows the code only to the holder, audits each reveal, and lets only the holder decide', async () => {
    const { token, code, order } = await anOrder()
    const [ada, bo] = [await reviewer(), await reviewer()]
    const claimed = reviewDeskApi.claim.data.parse((await ada.claim(order.id)).body.data)
    expect(claimed.cards[0].codes).toEqual([code])
    expect(claimed.claimExpiresAt).toBe(api.clock.now() + CLAIM_MS)
    expect((await ada.detail(order.id)).body.data.cards[0].codes).toEqual([code])
    // Bo sees who holds it, not the code, and cannot decide.
    const seen = (await bo.detail(order.id)).body.data
    expect(seen).toMatchObject({ claimedBy: ada.actor })
    expect(seen.cards[0].codes).toEqual([])
    expect((await bo.complete(order.id)).body).toMatchObject(Refusals.ORDER_CLAIM_NEEDED)
    expect((await bo.reject(order.id)).body).toMatchObject(Refusals.ORDER_CLAIM_NEEDED)
    expect((await walletInfo(api, token)).balance).toBe(0)
    const reveals = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', order.id)
      .where('action', '=', 'order.reveal')
      .execute()
    expect(reveals.map((r) => r.actor)).toEqual([ada.actor, ada.actor])
    // Ada decides: credited once.
    expect((await ada.complete(order.id)).body.code).toBe(Code.OK)
    expect((await walletInfo(api, token)).balance).toBe(order.quotedPayout)
  })

  it('a claim left alone lapses: another reviewer takes it over, and the first can no longer decide', async () => {
    const { token, code, order } = await anOrder()
    const [ada, bo] = [await reviewer(), await reviewer()]
    await ada.claim(order.id)
    // Renewing one's own claim is fine; before it lapses Bo cannot take it.
    expect((await ada.claim(order.id)).body.code).toBe(Code.OK)
    api.clock.advance(CLAIM_MS - 1)
    // (Ada's staff session, idle for as long as a claim lives, would end: she looks at something.)
    await ada.detail(order.id)
    expect((await bo.claim(order.id)).body.code).toBe(Refusals.ORDER_CLAIMED.code)
    api.clock.advance(1)
    const taken = await bo.claim(order.id)
    expect(taken.body.code).toBe(Code.OK)
    expect(taken.body.data).toMatchObject({ claimedBy: bo.actor })
    expect(taken.body.data.cards[0].codes).toEqual([code])
    expect((await ada.complete(order.id)).body).toMatchObject(Refusals.ORDER_CLAIM_NEEDED)
    // A lapsed claim is not held by its holder either.
    api.clock.advance(CLAIM_MS / 2)
    await bo.detail(order.id)
    api.clock.advance(CLAIM_MS / 2)
    expect((await bo.complete(order.id)).body).toMatchObject(Refusals.ORDER_CLAIM_NEEDED)
    expect((await bo.claim(order.id)).body.code).toBe(Code.OK)
    expect((await bo.complete(order.id)).body.code).toBe(Code.OK)
    expect((await walletInfo(api, token)).balance).toBe(order.quotedPayout)
    // Two claims and a takeover are on the timeline once: the person was told once.
    const inReview = await api.db
      .selectFrom('notifications')
      .selectAll()
      .where('ref_id', '=', order.id)
      .where('title', '=', 'Order in review')
      .execute()
    expect(inReview).toHaveLength(1)
  })

  it('a payouts person cannot claim', async () => {
    const { order } = await anOrder()
    const p = await seedStaff(api, { role: 'payouts' })
    expect((await api.post('/admin/order/claim', { id: order.id }, { headers: bearer(p.token) })).status).toBe(403)
  })
})
