import { describe, expect, it } from 'vitest'
import type { Page } from '#contract/envelope'
import { reviewDeskApi, type DeskOrder } from '#contract/ops/review'
import { ORDER_MOVES, REJECTION_REASONS, type Order, type OrderMove, type OrderStatus } from '#contract/orders'
import { userIndexData } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import type { BalanceLogEntry } from '#contract/wallet'
import { writeTransaction } from '../../api/db/transaction'
import { move } from '../../api/services/ledger'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { download, jpeg, newCode, ops, photo, sold, upload, useSellingApi } from '../support/selling'
import { TEST_STAFF_ACTOR, testStaffToken } from '../support/staff'
import { admin, walletInfo } from '../support/wallet'

/** The review: operators' queue and moves, the person's answers, money exactly once, messages, analytics. */
const api = useSellingApi()

const person = async () => {
  const { user, token } = await seedUser(api, { email: newEmail('review') })
  return { userId: user.id, token }
}
type Person = Awaited<ReturnType<typeof person>>

const detail = async (p: Person, id: string) => (await api.get<Order>(`/v1/order/detail?id=${id}`, { token: p.token })).body.data
// The test clock stands still, so messages share a millisecond: put them in the order of the story.
const STORY = [
  'Order received',
  'Order in review',
  'A lower payout is offered',
  'Order completed',
  'Order rejected',
  'Order cancelled',
  'Offer declined',
]
const messagesOf = async (orderId: string) =>
  (await api.db.selectFrom('notifications').selectAll().where('ref_id', '=', orderId).execute()).sort(
    (a, b) => Number(a.created_at) - Number(b.created_at) || STORY.indexOf(a.title) - STORY.indexOf(b.title),
  )
const payoutEntries = (orderId: string) => api.db.selectFrom('balance_logs').selectAll().where('ref_id', '=', orderId).execute()

/** An order of two e-code cards, brought to `status` the way it happens for real. */
async function orderIn(status: OrderStatus, owner?: Person): Promise<{ p: Person; order: Order }> {
  const p = owner ?? (await person())
  const order = await sold(api, p.token, {
    cards: [
      { faceValue: 10_000, cardCodes: [newCode()] },
      { faceValue: 5_000, cardCodes: [newCode()] },
    ],
  })
  const o = ops(api)
  const step = async (res: Promise<{ body: { code: number; msg: string } }>) => {
    const r = await res
    if (r.body.code !== 200) throw new Error(`setting up ${status}: ${r.body.msg}`)
  }
  if (status === 'cancelled') await step(api.post('/v1/order/cancel', { id: order.id }, { token: p.token }))
  if (['reviewing', 'proposed', 'completed', 'rejected', 'declined'].includes(status)) await step(o.claim(order.id))
  if (status === 'completed') await step(o.complete(order.id))
  if (status === 'rejected') await step(o.reject(order.id, 'INVALID_ECODE'))
  if (status === 'proposed' || status === 'declined') {
    await step(
      o.propose(order.id, 'The second card had been partly used', [
        { cardId: order.cards[1].cardId, payout: 1_000, reasonCode: 'ALREADY_USED' },
      ]),
    )
  }
  if (status === 'declined') await step(api.post('/v1/order/decline', { id: order.id }, { token: p.token }))
  return { p, order: await detail(p, order.id) }
}

function makeMove(move: Exclude<OrderMove, 'lapse'>, p: Person, order: Order) {
  const o = ops(api)
  switch (move) {
    case 'cancel':
    case 'accept':
    case 'decline':
      return api.post<Order>(`/v1/order/${move}`, { id: order.id }, { token: p.token })
    case 'claim':
      return o.claim(order.id)
    case 'complete':
      return o.complete(order.id)
    case 'propose':
      return o.propose(order.id, 'Lower', [{ cardId: order.cards[0].cardId, payout: 100, reasonCode: 'OTHER' }])
    case 'reject':
      return o.reject(order.id, 'FAKE_CARD')
  }
}

const STATUSES: OrderStatus[] = ['pending', 'reviewing', 'proposed', 'completed', 'rejected', 'cancelled', 'declined']
// The lapse is the system's move, made by the clock, not asked for: tests/api/offer-lapse.test.ts.
const MOVES = (Object.keys(ORDER_MOVES) as OrderMove[]).filter((m) => m !== 'lapse')

describe('the state machine: every move from every status', () => {
  const table = STATUSES.flatMap((status) => MOVES.map((move) => [status, move] as const))
  it.each(table)('%s + %s', async (status, move) => {
    const { p, order } = await orderIn(status)
    const rule = ORDER_MOVES[move]
    const before = { wallet: await walletInfo(api, p.token), events: order.events.length, messages: (await messagesOf(order.id)).length }
    const res = await makeMove(move, p, order)
    const after = await detail(p, order.id)
    const wallet = await walletInfo(api, p.token)
    const messages = (await messagesOf(order.id)).length
    if (status === rule.from) {
      // Allowed: the new status, one more event on the timeline, one more message.
      expect(res.body.code, res.body.msg).toBe(200)
      expect(after.status).toBe(rule.to)
      expect(after.events).toHaveLength(before.events + 1)
      expect(after.events.at(-1)).toMatchObject({ status: rule.to, by: rule.by === 'person' ? 'you' : 'operator' })
      expect(messages).toBe(before.messages + 1)
      const credited = move === 'complete' ? order.quotedPayout : move === 'accept' ? order.proposedPayout! : 0
      expect(wallet.balance).toBe(before.wallet.balance + credited)
    } else {
      // Refused (or the very same move again, which answers the order as it is): nothing changes.
      if (status === rule.to) expect(res.body.code).toBe(200)
      else {
        expect(res.body.code).toBe(Refusals.ORDER_BAD_MOVE.code)
        expect(res.body.msg).toMatch(new RegExp(status))
      }
      expect(after.status).toBe(status)
      expect(after.events).toHaveLength(before.events)
      expect(messages).toBe(before.messages)
      expect(wallet.balance).toBe(before.wallet.balance)
    }
  })

  it.each(['cancel', 'accept', 'decline'] as const)('%s on someone else’s order: not found, nothing changed', async (move) => {
    const { order } = await orderIn(move === 'cancel' ? 'pending' : 'proposed')
    const stranger = await person()
    const res = await api.post(`/v1/order/${move}`, { id: order.id }, { token: stranger.token })
    expect(res.body).toEqual({ code: Refusals.ORDER_NOT_FOUND.code, msg: Refusals.ORDER_NOT_FOUND.msg, data: null })
    expect((await api.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status).toBe(
      order.status,
    )
  })

  it('says what the status allows', async () => {
    const { p, order } = await orderIn('reviewing')
    expect((await api.post('/v1/order/cancel', { id: order.id }, { token: p.token })).body.msg).toBe(
      'Only a pending order can be cancelled. This one is reviewing',
    )
    const pending = await orderIn('pending')
    expect((await ops(api).complete(pending.order.id)).body.msg).toBe('Claim the order first: it is still pending')
    expect((await api.post('/v1/order/accept', { id: pending.order.id }, { token: pending.p.token })).body.msg).toBe(
      'There is no lower payout waiting for your answer on this order. It is pending',
    )
  })
})

describe('completing an order', () => {
  it('credits the full quote exactly once, in the same transaction, however often it is retried — also in parallel', async () => {
    const { p, order } = await orderIn('reviewing')
    const results = await Promise.all(Array.from({ length: 10 }, () => ops(api).complete(order.id)))
    expect(results.map((r) => r.body.code)).toEqual(Array(10).fill(200))
    for (let i = 0; i < 10; i++) expect((await ops(api).complete(order.id)).body.code).toBe(200)
    const entries = await payoutEntries(order.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      type: 'order_payout',
      amount: order.quotedPayout,
      ref_type: 'order',
      idempotency_key: `order:${order.id}:payout`,
    })
    expect((await walletInfo(api, p.token)).balance).toBe(order.quotedPayout)
    const done = await detail(p, order.id)
    expect(done).toMatchObject({ status: 'completed', settledPayout: order.quotedPayout, queue: null })
    expect(done.cards.map((c) => [c.status, c.settledPayout])).toEqual(order.cards.map((c) => ['completed', c.quotedPayout]))
    expect(done.events.map((e) => e.status)).toEqual(['pending', 'reviewing', 'completed'])
    const log = (await api.get<Page<BalanceLogEntry>>('/v1/user/pageBalanceLog', { token: p.token })).body.data.list
    expect(log[0]).toMatchObject({
      type: 'order_payout',
      amount: order.quotedPayout,
      refType: 'order',
      refId: order.id,
      note: `Order ${order.orderNo}`,
    })
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', order.id)
      .where('action', '!=', 'order.reveal')
      .orderBy('created_at')
      .execute()
    expect(audit.map((a) => [a.action, a.actor]).sort()).toEqual([
      ['order.claim', TEST_STAFF_ACTOR],
      ['order.complete', TEST_STAFF_ACTOR],
    ])
  })

  it('the status and the money move together: when the credit fails, the order stays as it was', async () => {
    const { p, order } = await orderIn('reviewing')
    // Another movement already holds this order's payout key: the ledger refuses the credit.
    await writeTransaction(api.db, api.dbKind, (trx) =>
      move(
        trx,
        { userId: p.userId, type: 'adjustment', amount: 1, refType: 'adjustment', refId: 'x', key: `order:${order.id}:payout` },
        'NGN',
        api.clock.now(),
      ),
    )
    const before = {
      messages: (await messagesOf(order.id)).length,
      audit: await api.db.selectFrom('audit_log').selectAll().where('target_id', '=', order.id).execute(),
    }
    const res = await ops(api).complete(order.id)
    expect(res.body.code).toBe(Refusals.IDEMPOTENCY_KEY_REUSED.code)
    const after = await detail(p, order.id)
    expect(after).toMatchObject({ status: 'reviewing', settledPayout: null })
    expect(after.events).toHaveLength(order.events.length)
    expect(after.cards.map((c) => c.settledPayout)).toEqual([null, null])
    expect((await messagesOf(order.id)).length).toBe(before.messages)
    expect(await api.db.selectFrom('audit_log').selectAll().where('target_id', '=', order.id).execute()).toEqual(before.audit)
    expect((await walletInfo(api, p.token)).balance).toBe(1)
  })

  it('messages the person at each step, with the order number and the amount', async () => {
    const { order } = await orderIn('completed')
    const messages = await messagesOf(order.id)
    expect(messages.map((m) => m.title)).toEqual(['Order received', 'Order in review', 'Order completed'])
    expect(messages[2].content).toContain(order.orderNo)
    expect(messages[2].content).toContain(
      new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(order.quotedPayout / 100),
    )
  })

  it('records first_successful_order once per person, whoever reports it, with the fields every event carries', async () => {
    const p = await person()
    const email = (await api.db.selectFrom('users').select('email').where('id', '=', p.userId).executeTakeFirstOrThrow()).email
    const events = () => api.db.selectFrom('analytics_events').selectAll().where('user_id', '=', p.userId).execute()
    await orderIn('pending', p)
    expect(await events()).toEqual([])
    // The person's phone, as their browser described it when they sold.
    const device = {
      userAgent: 'Mozilla/5.0 (iPhone)',
      platform: 'iOS',
      screenResolution: '390x844',
      language: 'en-NG',
      timezone: 'Africa/Lagos',
    }
    expect((await api.post('/v1/analytics/event', { name: 'order_submitted', ...device }, { token: p.token })).body.data).toEqual({
      recorded: true,
    })
    const first = await orderIn('completed', p)
    await orderIn('completed', p)
    const { order } = await orderIn('proposed', p)
    await api.post('/v1/order/accept', { id: order.id }, { token: p.token })
    const stored = (await events()).filter((e) => e.name === 'first_successful_order')
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ name: 'first_successful_order', once_key: `first_successful_order:${p.userId}` })
    expect(JSON.parse(stored[0].context_json!)).toEqual({ ...device, userEmail: email, orderId: first.order.id })
    // The web's collector reporting it again changes nothing; other events are stored.
    const again = await api.post(
      '/v1/analytics/event',
      { name: 'first_successful_order', timestamp: Date.now(), userId: 'someone-else', userEmail: 'x@example.com' },
      { token: p.token },
    )
    expect(again.body).toEqual({ code: 200, msg: 'success', data: { recorded: false } })
    const view = await api.post(
      '/v1/analytics/event',
      { name: 'page_view', platform: 'iPhone', screenResolution: '390x844', language: 'en-NG', timezone: 'Africa/Lagos' },
      { token: p.token },
    )
    expect(view.body.data).toEqual({ recorded: true })
    const pageView = (await events()).find((e) => e.name === 'page_view')!
    expect(JSON.parse(pageView.context_json!)).toEqual({
      platform: 'iPhone',
      screenResolution: '390x844',
      language: 'en-NG',
      timezone: 'Africa/Lagos',
      userEmail: email,
    })
    expect(JSON.stringify(await events())).not.toContain('x@example.com')
    expect((await api.post('/v1/analytics/event', { name: 'Bad Name!' }, { token: p.token })).status).toBe(400)
    // A visitor's page view is welcome (optional auth); it is stored without a person.
    expect((await api.post('/v1/analytics/event', { name: 'page_view' })).body.data).toEqual({ recorded: true })
  })
})

describe('a lower payout', () => {
  it('is proposed card by card with a reason; the person sees each line and accepts: credited the proposal, once', async () => {
    const { p, order } = await orderIn('reviewing')
    const [first, second] = order.cards
    const res = await ops(api).propose(order.id, 'Card 2 had US$40 left on it, not US$50', [
      { cardId: second.cardId, payout: 400_000, reasonCode: 'ALREADY_USED' },
    ])
    expect(res.body.code).toBe(200)
    const proposed = await detail(p, order.id)
    expect(proposed).toMatchObject({
      status: 'proposed',
      proposedPayout: first.quotedPayout + 400_000,
      proposal: { payout: first.quotedPayout + 400_000, reason: 'Card 2 had US$40 left on it, not US$50', at: api.clock.now() },
      operatorNote: 'Card 2 had US$40 left on it, not US$50',
      queue: null,
    })
    expect(proposed.cards.map((c) => [c.status, c.quotedPayout, c.proposedPayout, c.reasonCode])).toEqual([
      ['accepted', first.quotedPayout, first.quotedPayout, null],
      ['lowered', second.quotedPayout, 400_000, 'ALREADY_USED'],
    ])
    expect(proposed.cards[1].reasonText).toBe(REJECTION_REASONS.ALREADY_USED)
    // Nothing is credited until the person answers.
    expect((await walletInfo(api, p.token)).balance).toBe(0)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api.post<Order>('/v1/order/accept', { id: order.id }, { token: p.token })),
    )
    expect(answers.map((a) => a.body.code)).toEqual(Array(5).fill(200))
    expect((await walletInfo(api, p.token)).balance).toBe(first.quotedPayout + 400_000)
    expect(await payoutEntries(order.id)).toHaveLength(1)
    const done = await detail(p, order.id)
    expect(done).toMatchObject({ status: 'completed', settledPayout: first.quotedPayout + 400_000 })
    expect(done.cards.map((c) => c.settledPayout)).toEqual([first.quotedPayout, 400_000])
    expect((await messagesOf(order.id)).map((m) => m.title)).toEqual([
      'Order received',
      'Order in review',
      'A lower payout is offered',
      'Order completed',
    ])
  })

  it('declined: the order closes, nothing is credited, the card is not redeemed', async () => {
    const { p, order } = await orderIn('proposed')
    const res = await api.post<Order>('/v1/order/decline', { id: order.id }, { token: p.token })
    expect(res.body.data).toMatchObject({ status: 'declined', settledPayout: 0 })
    expect(res.body.data.cards.map((c) => [c.status, c.settledPayout])).toEqual([
      ['declined', 0],
      ['declined', 0],
    ])
    expect((await walletInfo(api, p.token)).balance).toBe(0)
    expect(await payoutEntries(order.id)).toEqual([])
    expect((await messagesOf(order.id)).at(-1)).toMatchObject({ title: 'Offer declined' })
  })

  it('a card at 0 is rejected within the order; the rest can still be accepted', async () => {
    const { p, order } = await orderIn('reviewing')
    await ops(api).propose(order.id, 'Card 1 is not a valid code', [
      { cardId: order.cards[0].cardId, payout: 0, reasonCode: 'INVALID_ECODE' },
    ])
    const proposed = await detail(p, order.id)
    expect(proposed.cards.map((c) => c.status)).toEqual(['rejected', 'accepted'])
    await api.post('/v1/order/accept', { id: order.id }, { token: p.token })
    const done = await detail(p, order.id)
    expect(done.cards.map((c) => [c.status, c.settledPayout])).toEqual([
      ['rejected', 0],
      ['completed', order.cards[1].quotedPayout],
    ])
    expect((await walletInfo(api, p.token)).balance).toBe(order.cards[1].quotedPayout)
  })

  it('must lower what it names, pay something, and name cards of this order', async () => {
    const { p, order } = await orderIn('reviewing')
    const [a, b] = order.cards
    const cases: [unknown[], string][] = [
      [[{ cardId: a.cardId, payout: a.quotedPayout, reasonCode: 'OTHER' }], `Card 1: a proposal must be lower than its quote of`],
      [[{ cardId: 'nope', payout: 1, reasonCode: 'OTHER' }], 'There is no card nope in this order'],
      [
        [
          { cardId: a.cardId, payout: 0, reasonCode: 'FAKE_CARD' },
          { cardId: b.cardId, payout: 0, reasonCode: 'FAKE_CARD' },
        ],
        'This proposal pays nothing: reject the order instead',
      ],
    ]
    for (const [cards, msg] of cases) {
      const res = await admin(api).post('/admin/order/propose', { id: order.id, reason: 'Because', cards })
      expect(res.body.code).toBe(Refusals.PROPOSAL_NOT_LOWER.code)
      expect(res.body.msg).toContain(msg)
    }
    const bad = await admin(api).post('/admin/order/propose', { id: order.id, reason: 'x', cards: [] })
    expect(bad.status).toBe(400)
    expect((await detail(p, order.id)).status).toBe('reviewing')
  })
})

describe('rejecting an order', () => {
  it('with a reason code, a note and a proof photo the person (and only the person) can see', async () => {
    const { p, order } = await orderIn('reviewing')
    const proof = await upload(api, { admin: await testStaffToken(api) }, await jpeg(800, 600))
    expect(proof.body.code).toBe(200)
    const res = await ops(api).reject(order.id, 'ALREADY_USED', {
      note: 'The redeem screen said: already redeemed on 3 May',
      proofImageId: proof.body.data.fileId,
    })
    expect(reviewDeskApi.reject.data.parse(res.body.data).status).toBe('rejected')
    const rejected = await detail(p, order.id)
    expect(rejected).toMatchObject({
      status: 'rejected',
      settledPayout: 0,
      rejection: { reasonCode: 'ALREADY_USED', reasonText: REJECTION_REASONS.ALREADY_USED },
      operatorNote: 'The redeem screen said: already redeemed on 3 May',
      proofImageId: proof.body.data.fileId,
    })
    expect(rejected.cards.map((c) => [c.status, c.reasonCode])).toEqual([
      ['rejected', 'ALREADY_USED'],
      ['rejected', 'ALREADY_USED'],
    ])
    expect(rejected.events.at(-1)!.note).toBe(`${REJECTION_REASONS.ALREADY_USED}. The redeem screen said: already redeemed on 3 May`)
    expect((await download(api, proof.body.data.fileId, { token: p.token })).type).toBe('image/jpeg')
    const stranger = await person()
    expect(JSON.parse((await download(api, proof.body.data.fileId, { token: stranger.token })).bytes.toString()).code).toBe(
      Refusals.IMAGE_NOT_FOUND.code,
    )
    expect((await messagesOf(order.id)).at(-1)!.content).toContain(REJECTION_REASONS.ALREADY_USED)
    expect((await walletInfo(api, p.token)).balance).toBe(0)
  })

  it('OTHER needs a note; an unknown code or proof photo is refused', async () => {
    const { p, order } = await orderIn('reviewing')
    const other = await ops(api).reject(order.id, 'OTHER')
    expect(other.status).toBe(400)
    expect(other.body.msg).toBe('note: OTHER needs a note the person can read')
    expect((await ops(api).reject(order.id, 'BORED')).status).toBe(400)
    expect((await ops(api).reject(order.id, 'FAKE_CARD', { proofImageId: '00000000-0000-4000-8000-000000000000' })).body.code).toBe(
      Refusals.PROOF_NOT_OPERATORS.code,
    )
    expect((await detail(p, order.id)).status).toBe('reviewing')
    expect((await ops(api).reject(order.id, 'OTHER', { note: 'The card is from a region we cannot redeem' })).body.code).toBe(200)
    expect(await detail(p, order.id)).toMatchObject({
      rejection: { reasonCode: 'OTHER', reasonText: REJECTION_REASONS.OTHER },
      operatorNote: 'The card is from a region we cannot redeem',
    })
  })
})

describe('the operators’ queue', () => {
  it('lists open orders oldest first with each card’s photos and its e-code decrypted', async () => {
    const p = await person()
    const code = newCode()
    const ecode = await sold(api, p.token, { cards: [{ faceValue: 10_000, cardCodes: [code, '7391'] }] })
    api.clock.advance(1)
    const ids = [await photo(api, p.token), await photo(api, p.token)]
    const physical = await sold(api, p.token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: ids }] })
    const res = await admin(api).get<Page<DeskOrder>>('/admin/order/page?pageSize=50')
    const queue = reviewDeskApi.queue.data.parse(res.body.data)
    expect(queue.list.every((o) => ['pending', 'reviewing'].includes(o.status))).toBe(true)
    const created = queue.list.map((o) => o.createdAt)
    expect(created).toEqual([...created].sort((x, y) => x - y))
    const e = queue.list.find((o) => o.id === ecode.id)!
    expect(e).toMatchObject({ userId: p.userId, email: expect.stringContaining('@example.com'), claimedBy: null })
    // The queue never shows a code: only the claim's holder sees it (tests/api/order-claims.test.ts).
    expect(e.cards[0].codes).toEqual([])
    expect(queue.list.find((o) => o.id === physical.id)!.cards[0]).toMatchObject({ imageIds: ids, codes: [] })
    expect((await download(api, ids[0], { admin: await testStaffToken(api) })).type).toBe('image/jpeg')
    const claimed = await ops(api).claim(ecode.id)
    expect(claimed.body.data).toMatchObject({ status: 'reviewing', claimedBy: TEST_STAFF_ACTOR })
    expect(claimed.body.data.cards[0].codes).toEqual([code, '7391'])
    const reviewing = (await admin(api).get<Page<DeskOrder>>('/admin/order/page?status=reviewing&pageSize=50')).body.data
    expect(reviewing.list.map((o) => o.id)).toContain(ecode.id)
    // Operators only; a person's token is not enough.
    expect((await api.get('/admin/order/page', { token: p.token })).status).toBe(401)
    expect((await admin(api).get('/admin/order/detail?id=nope')).body.code).toBe(Refusals.ORDER_NOT_FOUND.code)
  })
})

describe("the user index's open orders (Home)", () => {
  it('lists the orders still waiting for a decision — pending, reviewing, proposed — newest first, at most three, with the count', async () => {
    const p = await person()
    const openOf = async () => userIndexData.parse((await api.get('/v1/user/index', { token: p.token })).body.data).openOrders
    expect(await openOf()).toEqual({ count: 0, latest: [] })
    const done = await orderIn('completed', p)
    const gone = await orderIn('rejected', p)
    const pending = await orderIn('pending', p)
    api.clock.advance(1000)
    const reviewing = await orderIn('reviewing', p)
    api.clock.advance(1000)
    const proposed = await orderIn('proposed', p)
    api.clock.advance(1000)
    const newest = await orderIn('pending', p)
    const open = await openOf()
    expect(open.count).toBe(4)
    expect(open.latest.map((o) => [o.id, o.status])).toEqual([
      [newest.order.id, 'pending'],
      [proposed.order.id, 'proposed'],
      [reviewing.order.id, 'reviewing'],
    ])
    expect(open.latest.map((o) => o.id)).not.toContain(pending.order.id) // the fourth: counted, not listed
    expect([done.order.id, gone.order.id].some((id) => open.latest.some((o) => o.id === id))).toBe(false)
    // Someone else's orders are never there.
    expect(await userIndexData.parse((await api.get('/v1/user/index', { token: (await person()).token })).body.data).openOrders).toEqual({
      count: 0,
      latest: [],
    })
  })
})
