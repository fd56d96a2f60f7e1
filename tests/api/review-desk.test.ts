import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import type { DeskOrder, QueueData, OrderSignals } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, sold, upload, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'

/** The review desk's api: the queue's filters, age against ETA and count; the reveal; the seller's signals. */
const api = useSellingApi()

async function reviewer() {
  const s = await seedStaff(api, { role: 'reviewer' })
  const headers = bearer(s.token)
  return {
    queue: (query: string) => api.get<QueueData>(`/admin/order/page?${query}`, { headers }),
    claim: (id: string) => api.post<DeskOrder>('/admin/order/claim', { id }, { headers }),
    reveal: (id: string) => api.post<DeskOrder>('/admin/order/reveal', { id }, { headers }),
    detail: (id: string, codes = 'show') => api.get<DeskOrder>(`/admin/order/detail?id=${id}&codes=${codes}`, { headers }),
    signals: (id: string) => api.get<OrderSignals>(`/admin/order/signals?id=${id}`, { headers }),
    token: s.token,
  }
}

/** A card photo with enough structure to hash: stripes, a block and a circle placed by `seed`. */
function cardPhoto(seed: number): Promise<Buffer> {
  const stripes = Array.from({ length: 6 }, (_, i) => {
    const x = (seed * 37 + i * 97) % 560
    return `<rect x="${x}" y="0" width="${20 + ((seed + i) % 4) * 15}" height="400" fill="#${((seed * 50 + i * 40) % 200).toString(16).padStart(2, '0')}3060"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" fill="#e8e0d0"/>${stripes}
    <circle cx="${100 + ((seed * 53) % 440)}" cy="${80 + ((seed * 31) % 240)}" r="70" fill="#102040"/>
    <rect x="${(seed * 71) % 400}" y="${(seed * 29) % 250}" width="180" height="90" fill="#f0f0f0"/></svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer()
}

/** The same card photographed again: smaller, cropped a little, recompressed, a touch brighter. */
async function rephotographed(original: Buffer): Promise<Buffer> {
  const crop = await sharp(original).extract({ left: 12, top: 8, width: 616, height: 386 }).toBuffer()
  return sharp(crop).resize(480).modulate({ brightness: 1.05 }).jpeg({ quality: 55 }).toBuffer()
}

async function photoOf(token: string, bytes: Buffer): Promise<string> {
  const res = await upload(api, { token }, bytes)
  expect(res.body.code).toBe(Code.OK)
  return res.body.data.fileId
}

const person = async (label: string) => (await seedUser(api, { email: newEmail(label) })).token

describe('the queue', () => {
  it('filters by brand, country, type and status, oldest first, with age against ETA and the count of what waits', async () => {
    const r = await reviewer()
    const token = await person('queue')
    const first = await sold(api, token)
    api.clock.advance(60_000)
    const second = await sold(api, token)
    const steam = await sold(api, token, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [{ faceValue: 5_000, imageIds: [await photoOf(token, await cardPhoto(1))] }],
    })
    const apple = (await r.queue('brand=apple&pageSize=50')).body.data
    const ids = apple.list.map((o) => o.id)
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id))
    expect(ids).not.toContain(steam.id)
    expect(apple.list.every((o) => o.brandId === 'apple')).toBe(true)
    const physical = (await r.queue('type=physical&pageSize=50')).body.data
    expect(physical.list.map((o) => o.id)).toContain(steam.id)
    expect(physical.list.every((o) => o.cardType === 'physical')).toBe(true)
    expect((await r.queue('country=ng&pageSize=50')).body.data.list.map((o) => o.id)).not.toContain(first.id)

    await r.claim(first.id)
    const reviewing = (await r.queue('status=reviewing&brand=apple')).body.data
    expect(reviewing.list.map((o) => o.id)).toEqual([first.id])
    expect(reviewing.list[0].claimedBy).toBe(
      `staff:${(await api.db.selectFrom('staff').select('email').orderBy('created_at', 'desc').executeTakeFirstOrThrow()).email}`,
    )

    const before = (await r.queue('brand=apple')).body.data.waiting
    expect(before.total).toBeGreaterThanOrEqual(2)
    api.clock.advance(first.queue!.etaMinutes * 60_000 + 60_000)
    const late = (await r.queue('brand=apple&pageSize=50')).body.data
    expect(late.waiting.late).toBeGreaterThanOrEqual(2)
    const row = late.list.find((o) => o.id === second.id)!
    expect(row.late).toBe(true)
    expect(row.ageMinutes).toBeGreaterThan(first.queue!.etaMinutes)
  })

  it('pages oldest first: page 2 goes on where page 1 stopped, with the filter; a bad page or size is a 400 in words', async () => {
    const r = await reviewer()
    const token = await person('pages')
    const mine: string[] = []
    for (let i = 0; i < 7; i++) {
      mine.push((await sold(api, token, { brandId: 'steam' })).id)
      api.clock.advance(1_000)
    }
    const all = (await r.queue('brand=steam&pageSize=50')).body.data
    const ids = all.list.map((o) => o.id)
    const pages = [1, 2, 3].map(async (n) => (await r.queue(`brand=steam&pageSize=3&pageNum=${n}`)).body.data)
    const [one, two, three] = await Promise.all(pages)
    expect(one).toMatchObject({ total: all.total, pageNum: 1, pageSize: 3 })
    expect([...one.list, ...two.list, ...three.list].map((o) => o.id)).toEqual(ids.slice(0, 9))
    expect(ids.filter((id) => mine.includes(id))).toEqual(mine)
    for (const [query, words] of [
      ['pageNum=abc', 'pageNum: a whole page number from 1 to 100000'],
      ['pageNum=0', 'pageNum: a whole page number from 1 to 100000'],
      ['pageSize=51', 'pageSize: a whole number of rows from 1 to 50'],
      ['pageSize=2.5', 'pageSize: a whole number of rows from 1 to 50'],
    ]) {
      const res = await r.queue(query)
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(words)
    }
  })

  it('builds a page with one query per kind: 12 rows cost the queries of 2', async () => {
    const r = await reviewer()
    const token = await person('batch')
    for (let i = 0; i < 12; i++)
      await sold(api, token, {
        brandId: 'steam',
        cardType: 'physical',
        cards: [{ faceValue: 5_000, imageIds: [await photoOf(token, await cardPhoto(i))] }],
      })
    const cost = async (query: string) => {
      const before = api.queryCount()
      const res = await r.queue(query)
      expect(res.body.code).toBe(Code.OK)
      return { queries: api.queryCount() - before, rows: res.body.data.list.length }
    }
    const two = await cost('pageSize=2')
    const twelve = await cost('pageSize=12')
    expect([two.rows, twelve.rows]).toEqual([2, 12])
    expect(twelve.queries).toBe(two.queries)
  })

  it('refuses a bad filter with 400 naming the field', async () => {
    const r = await reviewer()
    for (const [query, field] of [
      ['brand=Apple%20Store', 'brand'],
      ['country=USA', 'country'],
      ['type=plastic', 'type'],
      ['status=lost', 'status'],
    ]) {
      const res = await r.queue(query)
      expect(res.body.code).toBe(Code.BAD_REQUEST)
      expect(res.body.msg.startsWith(`${field}:`)).toBe(true)
    }
  })
})

describe('the reveal', () => {
  it('shows e-codes only to the claim holder who asks, audited; the page can load without them', async () => {
    const [ada, bo] = [await reviewer(), await reviewer()]
    const code = newCode()
    const order = await sold(api, await person('reveal'), { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    expect((await ada.reveal(order.id)).body.code).toBe(Refusals.ORDER_CLAIM_NEEDED.code)
    await ada.claim(order.id)
    expect((await ada.detail(order.id, 'hide')).body.data.cards[0].codes).toEqual([])
    expect((await bo.reveal(order.id)).body.code).toBe(Refusals.ORDER_CLAIM_NEEDED.code)
    expect((await ada.reveal(order.id)).body.data.cards[0].codes).toEqual([code])
    const reveals = await api.db
      .selectFrom('audit_log')
      .select('actor')
      .where('target_id', '=', order.id)
      .where('action', '=', 'order.reveal')
      .execute()
    expect(reveals).toHaveLength(2)
  })
})

describe('signals', () => {
  it('knows the seller: orders completed and rejected, first order, account age', async () => {
    const r = await reviewer()
    const token = await person('history')
    const one = await sold(api, token)
    expect((await r.signals(one.id)).body.data.seller).toMatchObject({ completed: 0, rejected: 0, firstOrder: true, accountAgeDays: 0 })
    expect((await r.claim(one.id)).body.code).toBe(Code.OK)
    const done = await api.post('/admin/order/complete', { id: one.id }, { headers: bearer(r.token) })
    expect(done.text).toContain('"status":"completed"')
    // A later order: one made in the same millisecond has no "before" to speak of.
    api.clock.advance(1_000)
    const two = await sold(api, token)
    const s = (await r.signals(two.id)).body.data
    expect(s.seller).toMatchObject({ completed: 1, rejected: 0, firstOrder: false })
  })

  it('catches a re-photographed card on another account, and not a different card', async () => {
    const r = await reviewer()
    const [ada, bo] = [await person('photo-a'), await person('photo-b')]
    const original = await cardPhoto(7)
    const adaPhoto = await photoOf(ada, original)
    await sold(api, ada, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: [adaPhoto] }] })
    const again = await sold(api, bo, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [{ faceValue: 5_000, imageIds: [await photoOf(bo, await rephotographed(original))] }],
    })
    const other = await sold(api, bo, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [{ faceValue: 5_000, imageIds: [await photoOf(bo, await cardPhoto(23))] }],
    })
    const caught = (await r.signals(again.id)).body.data.samePhoto.filter((m) => m.otherImageId === adaPhoto)
    expect(caught).toHaveLength(1)
    expect(caught[0].email).toContain('photo-a')
    expect((await r.signals(other.id)).body.data.samePhoto.filter((m) => m.otherImageId === adaPhoto)).toEqual([])
  })

  it('finds the same e-code on another account (after a cancel), a shared bank account and a new account selling a lot', async () => {
    const r = await reviewer()
    const [ada, bo] = [await person('code-a'), await person('code-b')]
    const code = newCode()
    const first = await sold(api, ada, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    expect((await api.post('/v1/order/cancel', { id: first.id }, { token: ada })).body.code).toBe(Code.OK)
    const second = await sold(api, bo, { cards: [{ faceValue: 50_000, cardCodes: [code] }] })
    const users = await api.db.selectFrom('users').select(['id', 'email']).where('email', 'like', '%code-%').execute()
    for (const u of users) {
      await api.db
        .insertInto('bank_cards')
        .values({
          id: `bc-${u.id}`,
          user_id: u.id,
          bank_code: '058',
          account_number: '0123456789',
          account_name: 'A B',
          is_default: 1,
          created_at: api.clock.now(),
          name_from_bank: 0,
          name_flagged: 0,
          deleted_at: null,
        })
        .execute()
    }
    const s = (await r.signals(second.id)).body.data
    expect(s.sameCode.map((c) => c.orderId)).toEqual([first.id])
    expect(s.sharedBank).toHaveLength(1)
    expect(s.sharedBank[0]).toMatchObject({ bankCode: '058', last4: '6789' })
    expect(s.sharedBank[0].emails[0]).toContain('code-a')
    expect(s.newAccountLargeSale).toBe(second.quotedPayout >= 20_000_000)
    const plain = (await r.signals(first.id)).body.data
    expect(plain.sameCode.map((c) => c.orderId)).toEqual([second.id])
  })
})
