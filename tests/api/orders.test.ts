import { existsSync, readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { payoutFor } from '#contract/catalogue'
import type { Page } from '#contract/envelope'
import { ordersApi, type Order, type OrderSummary } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, ops, photo, rateOf, sell, sold, useSellingApi } from '../support/selling'
import { requestId } from '../support/wallet'

/** Selling: the order with its locked quote, idempotency, codes sold once and kept secret, photos, bad input. */
const api = useSellingApi()
const person = async () => (await seedUser(api, { email: newEmail('seller') })).token
const count = async (table: 'orders' | 'order_cards' | 'ecode_fingerprints' | 'notifications') =>
  Number(
    (
      await api.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('selling e-codes', () => {
  it('makes a pending order with the quoted rate and each card’s payout locked on it', async () => {
    const token = await person()
    const rate = await rateOf(api, 'apple', 'US', 'ecode')
    const code = 'abcd-efgh-2345-wxyz'
    // A code nothing in the answer can spell by chance (a bare '4821' once turned up among its ids and times).
    const second = newCode()
    const res = await sell(api, token, {
      cards: [
        { faceValue: 10_000, cardCodes: [code] },
        { faceValue: 2_550, cardCodes: [newCode(), second] },
      ],
    })
    expect(res.body.code).toBe(200)
    const order = ordersApi.sell.data.parse(res.body.data)
    const payouts = [payoutFor(10_000, rate.rate, 'USD', 'NGN'), payoutFor(2_550, rate.rate, 'USD', 'NGN')]
    expect(order).toMatchObject({
      status: 'pending',
      brandId: 'apple',
      brandName: 'Apple',
      country: 'US',
      currency: 'USD',
      cardType: 'ecode',
      quotedRate: rate.rate,
      payoutCurrency: 'NGN',
      cardCount: 2,
      faceValueTotal: 12_550,
      quotedPayout: payouts[0] + payouts[1],
      proposedPayout: null,
      settledPayout: null,
      rejection: null,
      proposal: null,
    })
    expect(order.orderNo).toMatch(/^CL-[2-9A-HJ-NP-Z]{8}$/)
    expect(order.cards.map((c) => [c.position, c.faceValue, c.quotedPayout, c.status, c.maskedCodes])).toEqual([
      [1, 10_000, payouts[0], 'pending', ['•••• WXYZ']],
      [2, 2_550, payouts[1], 'pending', [expect.stringMatching(/^•••• [A-Z0-9]{4}$/), '•••']],
    ])
    expect(order.events).toEqual([{ status: 'pending', at: api.clock.now(), by: 'you', note: null }])
    expect(order.queue).toMatchObject({ etaMinutes: 15, expectedBy: order.createdAt + 15 * 60_000 })
    // The code never comes back in clear.
    expect(res.text).not.toContain('ABCDEFGH2345WXYZ')
    expect(res.text).not.toContain(second)
  })

  it('a later rate change does not touch the order: the review starts from the quote', async () => {
    const token = await person()
    const order = await sold(api, token)
    expect((await ops(api).setRate('apple', 'US', 'ecode', '1.50')).body.code).toBe(200)
    const detail = (await api.get<Order>(`/v1/order/detail?id=${order.id}`, { token })).body.data
    expect(detail.quotedRate).toBe(order.quotedRate)
    expect(detail.quotedPayout).toBe(order.quotedPayout)
    // Put the board back for the other tests.
    await ops(api).setRate('apple', 'US', 'ecode', order.quotedRate)
  })

  it('refuses with RATE_CHANGED and the new payout when the rate moved since the person saw it; the new rate goes through', async () => {
    const token = await person()
    const old = await rateOf(api, 'steam', 'US', 'ecode')
    api.clock.advance(1)
    await ops(api).setRate('steam', 'US', 'ecode', '1300.50')
    const before = await count('orders')
    const card = { faceValue: 5_000, cardCodes: [newCode()] }
    const refused = await sell(api, token, { brandId: 'steam', cards: [card], quotedRate: old.rate })
    expect(refused.body).toEqual({
      code: Refusals.RATE_CHANGED.code,
      msg: `The rate changed to ₦1,300.50 per US$1.00 (you saw ${new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(Number(old.rate))}): you would get ₦65,025.00. Check the new payout and confirm`,
      data: null,
    })
    expect(await count('orders')).toBe(before)
    const confirmed = await sell(api, token, { brandId: 'steam', cards: [card], quotedRate: '1300.5' })
    expect(confirmed.body.data).toMatchObject({ quotedRate: '1300.50', quotedPayout: 6_502_500 })
  })

  it('is idempotent by requestId: the same request answers the first order; another body with the key is refused', async () => {
    const token = await person()
    const key = requestId()
    const cards = [{ faceValue: 5_000, cardCodes: [newCode()] }]
    const first = await sell(api, token, { cards, requestId: key })
    const again = await sell(api, token, { cards, requestId: key })
    expect(again.body.data.id).toBe(first.body.data.id)
    const before = await count('orders')
    const other = await sell(api, token, { cards: [{ faceValue: 6_000, cardCodes: cards[0].cardCodes }], requestId: key })
    expect(other.body).toMatchObject({ code: Refusals.IDEMPOTENCY_KEY_REUSED.code })
    // In parallel too: one order.
    const key2 = requestId()
    const cards2 = [{ faceValue: 5_000, cardCodes: [newCode()] }]
    const burst = await Promise.all(Array.from({ length: 8 }, () => sell(api, token, { cards: cards2, requestId: key2 })))
    expect(burst.map((r) => r.body.code)).toEqual(Array(8).fill(200))
    expect(new Set(burst.map((r) => r.body.data?.id)).size).toBe(1)
    expect(await count('orders')).toBe(before + 1)
    // The same key is another person's own key: no clash.
    expect((await sell(api, await person(), { cards: [{ faceValue: 5_000, cardCodes: [newCode()] }], requestId: key })).body.code).toBe(200)
  })

  it('sells a code once, whoever submits it and however it is typed; a cancelled order gives it back', async () => {
    const ada = await person()
    const bola = await person()
    const code = newCode()
    const first = await sold(api, ada, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    const spaced = code.replace(/(.{4})/g, '$1 ').toLowerCase()
    for (const [token, typed] of [
      [bola, code],
      [bola, spaced],
      [ada, `${code.slice(0, 8)}-${code.slice(8)}`],
    ]) {
      const res = await sell(api, token, { cards: [{ faceValue: 10_000, cardCodes: [typed] }] })
      expect(res.body).toEqual({ code: Refusals.CODE_ALREADY_SUBMITTED.code, msg: Refusals.CODE_ALREADY_SUBMITTED.msg, data: null })
    }
    // Among several cards, the msg says which.
    const many = await sell(api, bola, {
      cards: [
        { faceValue: 10_000, cardCodes: [newCode()] },
        { faceValue: 10_000, cardCodes: [code] },
      ],
    })
    expect(many.body.msg).toBe(`Card 2: ${Refusals.CODE_ALREADY_SUBMITTED.msg}`)
    // The same code twice in one order is bad input.
    const sameTwice = newCode()
    const dup = await sell(api, bola, {
      cards: [
        { faceValue: 10_000, cardCodes: [sameTwice] },
        { faceValue: 10_000, cardCodes: [sameTwice.toLowerCase()] },
      ],
    })
    expect(dup.body.msg).toBe('cards.1.cardCodes.0: This is the same code as card 1')

    expect((await api.post('/v1/order/cancel', { id: first.id }, { token: ada })).body.code).toBe(200)
    expect((await sell(api, bola, { cards: [{ faceValue: 10_000, cardCodes: [spaced] }] })).body.code).toBe(200)
  })

  it('two people submitting one code at the same moment: one order', async () => {
    const code = newCode()
    const tokens = await Promise.all(Array.from({ length: 6 }, person))
    const results = await Promise.all(tokens.map((t) => sell(api, t, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })))
    expect(results.filter((r) => r.body.code === 200)).toHaveLength(1)
    expect(results.filter((r) => r.body.code === Refusals.CODE_ALREADY_SUBMITTED.code)).toHaveLength(5)
  })

  it('keeps codes encrypted at rest: no code in clear in the rows or the database file, only its last 4', async () => {
    const token = await person()
    const code = newCode()
    const pin = '9817'
    const order = await sold(api, token, { cards: [{ faceValue: 10_000, cardCodes: [code, pin] }] })
    const card = await api.db.selectFrom('order_cards').selectAll().where('order_id', '=', order.id).executeTakeFirstOrThrow()
    expect(card.codes_cipher).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/)
    const everything = JSON.stringify(
      await Promise.all(
        ['orders', 'order_cards', 'order_events', 'ecode_fingerprints', 'notifications', 'audit_log'].map((t) =>
          api.db
            .selectFrom(t as 'orders')
            .selectAll()
            .execute(),
        ),
      ),
    )
    expect(everything).not.toContain(code)
    expect(everything).not.toContain(code.slice(0, 12))
    expect(everything).toContain(`•••• ${code.slice(-4)}`)
    if (api.dbKind === 'sqlite') {
      // The file itself and its write-ahead log, byte for byte.
      const { rows } = await sql<{ file: string }>`pragma database_list`.execute(api.db)
      const bytes = Buffer.concat([`${rows[0].file}`, `${rows[0].file}-wal`].filter(existsSync).map((f) => readFileSync(f)))
      expect(bytes.length).toBeGreaterThan(0)
      expect(bytes.includes(Buffer.from(code))).toBe(false)
      expect(bytes.includes(Buffer.from(code.slice(0, 12)))).toBe(false)
      expect(bytes.includes(Buffer.from(`•••• ${code.slice(-4)}`))).toBe(true)
    }
    // Nor in the logs.
    expect(api.logs.join('\n')).not.toContain(code)
    expect(api.logs.join('\n')).not.toContain(code.slice(0, 12))
  })
})

describe('selling physical cards with photos', () => {
  it('takes the person’s own photos, up to 10 a card; the order lists them', async () => {
    const token = await person()
    const ids = [await photo(api, token), await photo(api, token)]
    const res = await sell(api, token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: ids }] })
    expect(res.body.code).toBe(200)
    expect(res.body.data.cards[0]).toMatchObject({ imageIds: ids, maskedCodes: [] })
    const eleven = Array.from({ length: 11 }, () => ids[0])
    const tooMany = await sell(api, token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: eleven }] })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.msg).toBe('cards.0.imageIds: At most 10 photos a card')
    const twice = await sell(api, token, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [{ faceValue: 5_000, imageIds: [ids[0], ids[0]] }],
    })
    expect(twice.body.msg).toBe('cards.0.imageIds: The same photo is added twice')
  })

  it('refuses someone else’s photo, and an id that is no photo, changing nothing', async () => {
    const ada = await person()
    const bola = await person()
    const adasPhoto = await photo(api, ada)
    const before = await count('orders')
    const theirs = await sell(api, bola, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: [adasPhoto] }] })
    expect(theirs.body).toEqual({ code: Refusals.IMAGE_NOT_FOUND.code, msg: Refusals.IMAGE_NOT_FOUND.msg, data: null })
    const none = await sell(api, bola, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [
        { faceValue: 5_000, imageIds: [await photo(api, bola)] },
        { faceValue: 5_000, imageIds: ['00000000-0000-4000-8000-000000000000'] },
      ],
    })
    expect(none.body.msg).toBe(`Card 2: ${Refusals.IMAGE_NOT_FOUND.msg}`)
    expect(await count('orders')).toBe(before)
  })
})

describe('bad input: a clear message, nothing changed, never a 500', () => {
  const cases: [string, Record<string, unknown>, number, string | RegExp][] = [
    ['an unknown brand', { brandId: 'acme' }, Refusals.UNKNOWN_BRAND.code, Refusals.UNKNOWN_BRAND.msg],
    [
      'an unknown country',
      { country: 'JP' },
      Refusals.UNKNOWN_COUNTRY.code,
      'We do not buy Apple cards from that country. Choose another country',
    ],
    [
      'an unknown type in that country',
      { country: 'DE', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: ['00000000-0000-4000-8000-000000000000'] }] },
      Refusals.UNKNOWN_CARD_TYPE.code,
      /^We do not buy Apple Germany cards as physical cards/,
    ],
    ['a type that is no type', { cardType: 'paper' }, 400, 'cardType: Choose the card type: physical or ecode'],
    [
      'a face value under the limit',
      { cards: [{ faceValue: 999, cardCodes: ['AAAABBBBCCCC'] }] },
      Refusals.FACE_VALUE_OUT_OF_RANGE.code,
      'The face value must be between US$10.00 and US$500.00',
    ],
    [
      'a face value over the limit',
      { cards: [{ faceValue: 50_001, cardCodes: ['AAAABBBBCCCC'] }] },
      Refusals.FACE_VALUE_OUT_OF_RANGE.code,
      'The face value must be between US$10.00 and US$500.00',
    ],
    [
      'a value the card does not come in',
      { brandId: 'steam', cards: [{ faceValue: 3_000, cardCodes: ['AAAABBBBCCCC'] }] },
      Refusals.FACE_VALUE_NOT_LISTED.code,
      /^This card comes in US\$5\.00, /,
    ],
    [
      'a face value that is not whole minor units',
      { cards: [{ faceValue: 100.5, cardCodes: ['AAAABBBBCCCC'] }] },
      400,
      'cards.0.faceValue: Face value must be a whole number of minor units',
    ],
    ['no cards', { cards: [] }, 400, 'cards: Add at least one card'],
    [
      'eleven cards',
      { cards: Array.from({ length: 11 }, (_, i) => ({ faceValue: 5_000, cardCodes: [`CODE${i}XXXXXX`] })) },
      400,
      'cards: At most 10 cards in one order',
    ],
    ['an empty code', { cards: [{ faceValue: 5_000, cardCodes: [''] }] }, 400, 'cards.0.cardCodes.0: Type the code of the card'],
    ['no code list', { cards: [{ faceValue: 5_000, cardCodes: [] }] }, 400, 'cards.0.cardCodes: Type the code of the card'],
    [
      'a code with symbols',
      { cards: [{ faceValue: 5_000, cardCodes: ['ABC$%^&*()DEF'] }] },
      400,
      'cards.0.cardCodes.0: The code must be 6 to 64 letters and digits',
    ],
    [
      'a code too short',
      { cards: [{ faceValue: 5_000, cardCodes: ['AB12'] }] },
      400,
      'cards.0.cardCodes.0: The code must be 6 to 64 letters and digits',
    ],
    [
      'a code far too long',
      { cards: [{ faceValue: 5_000, cardCodes: ['A'.repeat(10_000)] }] },
      400,
      'cards.0.cardCodes.0: The code is too long',
    ],
    [
      'a bad PIN',
      { cards: [{ faceValue: 5_000, cardCodes: ['AAAABBBBCCCC', '1'] }] },
      400,
      'cards.0.cardCodes.1: The PIN must be 3 to 16 letters and digits',
    ],
    ['an e-code without its code', { cards: [{ faceValue: 5_000 }] }, 400, 'cards.0.cardCodes: Type the code of each e-code card'],
    [
      'photos on an e-code',
      { cards: [{ faceValue: 5_000, cardCodes: ['AAAABBBBCCCC'], imageIds: ['00000000-0000-4000-8000-000000000000'] }] },
      400,
      'cards.0.imageIds: An e-code card is sold by its code, not photos',
    ],
    [
      'a physical card without photos',
      { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000 }] },
      400,
      'cards.0.imageIds: Add a photo of each physical card',
    ],
    [
      'a photo id that is not one',
      { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: ['../../etc/passwd'] }] },
      400,
      'cards.0.imageIds.0: id is not a photo id',
    ],
    ['a rate that is no rate', { quotedRate: '1e3' }, 400, /^quotedRate: /],
    ['a missing requestId', { requestId: undefined }, 400, 'requestId: requestId is required'],
    ['an unknown field', { pin: '1234' }, 400, 'pin: Unknown field'],
  ]
  it.each(cases)('%s', async (_label, body, code, msg) => {
    const token = await person()
    const before = await Promise.all([count('orders'), count('order_cards'), count('ecode_fingerprints'), count('notifications')])
    const rate = (await rateOf(api, 'apple', 'US', 'ecode')).rate
    const payload = {
      brandId: 'apple',
      country: 'US',
      cardType: 'ecode',
      cards: [{ faceValue: 5_000, cardCodes: [newCode()] }],
      quotedRate: rate,
      requestId: requestId(),
      ...body,
    }
    const res = await api.post('/v1/order/sell', payload, { token })
    expect(res.status).toBe(code === 400 ? 400 : 200)
    expect(res.body.code).toBe(code)
    if (typeof msg === 'string') expect(res.body.msg).toBe(msg)
    else expect(res.body.msg).toMatch(msg)
    expect(await Promise.all([count('orders'), count('order_cards'), count('ecode_fingerprints'), count('notifications')])).toEqual(before)
  })

  it('needs a token', async () => {
    expect((await api.post('/v1/order/sell', {})).status).toBe(401)
    expect((await api.get('/v1/order/page')).status).toBe(401)
  })

  it('the largest accepted order stays cheap: 10 cards of 10 photos', async () => {
    const token = await person()
    const ids = await Promise.all(Array.from({ length: 10 }, () => photo(api, token)))
    const res = await sell(api, token, {
      brandId: 'amazon',
      cardType: 'physical',
      cards: Array.from({ length: 10 }, () => ({ faceValue: 10_000, imageIds: ids })),
    })
    expect(res.body.code).toBe(200)
    expect(res.text.length).toBeLessThan(64 * 1024)
  })
})

describe('the person’s orders', () => {
  it('pages newest first, filters by status, and shows only their own', async () => {
    const token = await person()
    const a = await sold(api, token)
    api.clock.advance(1000)
    const b = await sold(api, token)
    api.clock.advance(1000)
    const c = await sold(api, token)
    await api.post('/v1/order/cancel', { id: b.id }, { token })
    await sold(api, await person())
    const page = (await api.get<Page<OrderSummary>>('/v1/order/page?pageSize=2', { token })).body.data
    expect(ordersApi.page.data.parse(page)).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 })
    expect(page.list.map((o) => o.id)).toEqual([c.id, b.id])
    expect((await api.get<Page<OrderSummary>>('/v1/order/page?pageNum=2&pageSize=2', { token })).body.data.list.map((o) => o.id)).toEqual([
      a.id,
    ])
    const cancelled = (await api.get<Page<OrderSummary>>('/v1/order/page?status=cancelled', { token })).body.data
    expect(cancelled.list.map((o) => o.id)).toEqual([b.id])
    expect((await api.get('/v1/order/page?status=lost', { token })).status).toBe(400)
  })

  it('shows the detail to its owner only; the queue position counts the open orders before it', async () => {
    const token = await person()
    const other = await person()
    const order = await sold(api, token)
    const detail = await api.get<Order>(`/v1/order/detail?id=${order.id}`, { token })
    expect(ordersApi.detail.data.parse(detail.body.data).queue!.position).toBeGreaterThanOrEqual(1)
    const open = Number(
      (
        await api.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['pending', 'reviewing'])
          .where('created_at', '<=', order.createdAt)
          .executeTakeFirstOrThrow()
      ).n,
    )
    expect(detail.body.data.queue!.position).toBeLessThanOrEqual(open)
    api.clock.advance(1)
    const later = await sold(api, other)
    expect((await api.get<Order>(`/v1/order/detail?id=${later.id}`, { token: other })).body.data.queue!.position).toBeGreaterThan(
      detail.body.data.queue!.position,
    )
    expect((await api.get(`/v1/order/detail?id=${order.id}`, { token: other })).body).toEqual({
      code: Refusals.ORDER_NOT_FOUND.code,
      msg: Refusals.ORDER_NOT_FOUND.msg,
      data: null,
    })
    expect((await api.get('/v1/order/detail?id=nope', { token })).body.code).toBe(Refusals.ORDER_NOT_FOUND.code)
    expect((await api.get('/v1/order/detail', { token })).status).toBe(400)
  })

  it('tells the person the order was received, with its number and the review ETA', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('msg') })
    const order = await sold(api, token)
    const messages = await api.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).execute()
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({ kind: 'order', ref_id: order.id, title: 'Order received' })
    expect(messages[0].content).toContain(order.orderNo)
    expect(messages[0].content).toContain('about 15 minutes')
  })
})
