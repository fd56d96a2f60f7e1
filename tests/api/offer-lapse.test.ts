import { describe, expect, it, vi } from 'vitest'
import type { Order } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { startHousekeeping } from '../../api/housekeeping'
import { lapseOffers } from '../../api/services/orders'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, ops, sold, useSellingApi } from '../support/selling'
import { walletInfo } from '../support/wallet'

/** A lower offer has a deadline (decision 051): unanswered, it lapses once, as a decline by the system. */
const HOURS = 6
const api = useSellingApi({ selling: { offerAnswerMs: HOURS * 3_600_000 } })

async function offered() {
  const { user, token } = await seedUser(api, { email: newEmail('lapse') })
  const order = await sold(api, token, { cards: [{ faceValue: 10_000, cardCodes: [newCode()] }] })
  const o = ops(api)
  expect((await o.claim(order.id)).body.code).toBe(200)
  const res = await o.propose(order.id, 'Part of the balance was used', [
    { cardId: order.cards[0].cardId, payout: 1_000, reasonCode: 'OTHER' },
  ])
  expect(res.body.code, res.body.msg).toBe(200)
  return { userId: user.id, token, order }
}
const detail = async (token: string, id: string) => (await api.get<Order>(`/v1/order/detail?id=${id}`, { token })).body.data
const messages = (orderId: string) =>
  api.db.selectFrom('notifications').select(['title', 'content']).where('ref_id', '=', orderId).execute()
const deliveriesOf = (userId: string) =>
  api.db
    .selectFrom('deliveries')
    .innerJoin('notifications', 'notifications.id', 'deliveries.notification_id')
    .select(['notifications.title'])
    .where('notifications.user_id', '=', userId)
    .execute()

describe('a lower offer’s deadline', () => {
  it('the offer says when it lapses, in the order, its message and its push', async () => {
    const proposedAt = api.clock.now()
    const { token, order, userId } = await offered()
    const o = await detail(token, order.id)
    expect(o.proposal?.answerBy).toBe(proposedAt + HOURS * 3_600_000)
    const offer = (await messages(order.id)).find((m) => m.title === 'A lower payout is offered')
    expect(offer?.content).toMatch(
      /accept or decline it by \w{3} \d{1,2} \w{3}, \d\d:\d\d GMT\+1; unanswered, the offer lapses and the card stays yours\./,
    )
    const push = await api.db
      .selectFrom('deliveries')
      .innerJoin('notifications', 'notifications.id', 'deliveries.notification_id')
      .select(['deliveries.summary'])
      .where('notifications.user_id', '=', userId)
      .where('notifications.title', '=', 'A lower payout is offered')
      .execute()
    expect(push.length).toBeGreaterThan(0)
    for (const d of push) expect(d.summary).toMatch(/is waiting for your answer by \w{3} \d{1,2} \w{3}, \d\d:\d\d GMT\+1\.$/)
  })

  it('before the deadline nothing lapses; after it, the order closes once as declined by the system, nothing paid', async () => {
    const { token, order, userId } = await offered()
    const balance = (await walletInfo(api, token)).balance
    api.clock.advance(HOURS * 3_600_000 - 1)
    expect(await lapseOffers(api.deps)).toBe(0)
    expect((await detail(token, order.id)).status).toBe('proposed')

    api.clock.advance(1)
    // Two instances at once close it once.
    const [a, b] = await Promise.all([lapseOffers(api.deps), lapseOffers(api.deps)])
    expect(a + b).toBeGreaterThanOrEqual(1)
    const after = await detail(token, order.id)
    expect(after.status).toBe('declined')
    expect(after.events.filter((e) => e.status === 'declined')).toEqual([
      expect.objectContaining({ by: 'system', note: expect.stringMatching(/^No answer by .+: the offer lapsed$/) }),
    ])
    expect(after.cards.every((c) => c.settledPayout === 0 || c.settledPayout === null)).toBe(true)
    expect((await walletInfo(api, token)).balance).toBe(balance)
    const lapsed = (await messages(order.id)).filter((m) => m.title === 'Offer lapsed')
    expect(lapsed).toHaveLength(1)
    expect(lapsed[0]!.content).toContain('the cards were not redeemed, and nothing was credited')
    expect((await deliveriesOf(userId)).filter((d) => d.title === 'Offer lapsed').length).toBeGreaterThan(0)
    expect(await lapseOffers(api.deps)).toBe(0)
  })

  it('past the deadline the offer cannot be accepted, even before the lapse ran: nothing is credited', async () => {
    const { token, order } = await offered()
    const balance = (await walletInfo(api, token)).balance
    api.clock.advance(HOURS * 3_600_000)
    const res = await api.post('/v1/order/accept', { id: order.id }, { token })
    expect(res.body.code).toBe(Refusals.ORDER_BAD_MOVE.code)
    expect(res.body.msg).toMatch(/^This offer lapsed at .+: the order closes and the card stays yours$/)
    expect((await detail(token, order.id)).status).toBe('proposed')
    expect((await walletInfo(api, token)).balance).toBe(balance)
    await lapseOffers(api.deps)
    expect((await detail(token, order.id)).status).toBe('declined')
  })

  it('an answer in time stands: the lapse leaves an accepted or declined offer alone', async () => {
    const accepted = await offered()
    const declined = await offered()
    expect((await api.post('/v1/order/accept', { id: accepted.order.id }, { token: accepted.token })).body.code).toBe(200)
    expect((await api.post('/v1/order/decline', { id: declined.order.id }, { token: declined.token })).body.code).toBe(200)
    const paid = (await walletInfo(api, accepted.token)).balance
    api.clock.advance(HOURS * 3_600_000)
    await lapseOffers(api.deps)
    const a = await detail(accepted.token, accepted.order.id)
    expect(a.status).toBe('completed')
    expect(a.events.map((e) => e.by)).not.toContain('system')
    expect((await walletInfo(api, accepted.token)).balance).toBe(paid)
    const d = await detail(declined.token, declined.order.id)
    expect(d.events.filter((e) => e.status === 'declined').map((e) => e.by)).toEqual(['you'])
    expect((await messages(declined.order.id)).map((m) => m.title)).not.toContain('Offer lapsed')
  })

  it('the running api closes due offers by itself (its housekeeping timer), and stops cleanly', async () => {
    const { token, order } = await offered()
    api.clock.advance(HOURS * 3_600_000)
    const housekeeping = startHousekeeping(api.deps, 3_600_000, 20)
    try {
      await vi.waitFor(async () => expect((await detail(token, order.id)).status).toBe('declined'), { timeout: 5_000, interval: 50 })
    } finally {
      await housekeeping.stop()
    }
  })

  it('an accept racing the lapse at the deadline: exactly one outcome, money at most once', async () => {
    const { token, order } = await offered()
    const balance = (await walletInfo(api, token)).balance
    api.clock.advance(HOURS * 3_600_000 - 1)
    const accept = api.post('/v1/order/accept', { id: order.id }, { token })
    api.clock.advance(1)
    await Promise.all([accept, lapseOffers(api.deps)])
    const o = await detail(token, order.id)
    const credited = (await walletInfo(api, token)).balance - balance
    if (o.status === 'completed') expect(credited).toBe(1_000)
    else {
      expect(o.status).toBe('declined')
      expect(credited).toBe(0)
    }
    expect(o.events.filter((e) => e.status === 'completed' || e.status === 'declined')).toHaveLength(1)
  })
})
