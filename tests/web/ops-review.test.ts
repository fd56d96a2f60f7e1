import { describe, expect, it } from 'vitest'
import type { Order } from '#contract/orders'
import * as photo from '~/ops/routes/ops.photo.$id'
import * as desk from '~/ops/routes/ops.review.$orderId'
import * as queue from '~/ops/routes/ops.review._index'
import { seedUser } from '../support/api'
import { staffJar, staffToastOf } from '../support/console'
import { newEmail } from '../support/kit'
import { jpeg, newCode, photo as uploadPhoto, sold, useSellingApi } from '../support/selling'
import { walletInfo } from '../support/wallet'
import { call, jsonOf, load, ORIGIN, submit, type CookieJar } from '../support/web'

/** The review desk's loaders and actions with real Requests, against the real api. */
const api = useSellingApi({ web: true })

const seller = async () => (await seedUser(api, { email: newEmail('desk') })).token
const page = (id: string) => `/ops/review/${id}`
const open = async (jar: CookieJar, id: string) => jsonOf(await load(desk.loader, page(id), jar, { orderId: id }))
const act = (jar: CookieJar, id: string, form: Record<string, string>) => submit(desk.action, page(id), form, jar, { orderId: id })

describe('the queue', () => {
  it('lists what waits oldest first, filters by the GET form, and says a bad filter in words', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const token = await seller()
    const apple = await sold(api, token)
    api.clock.advance(1_000)
    const steam = await sold(api, token, {
      brandId: 'steam',
      cardType: 'physical',
      cards: [{ faceValue: 5_000, imageIds: [await uploadPhoto(api, token)] }],
    })
    const all = await jsonOf(await load(queue.loader, '/ops/review', jar))
    const ids = all.queue.list.map((o: Order) => o.id)
    expect(ids.indexOf(apple.id)).toBeLessThan(ids.indexOf(steam.id))
    expect(all.queue.waiting.total).toBeGreaterThanOrEqual(2)
    const physical = await jsonOf(await load(queue.loader, '/ops/review?type=physical&brand=', jar))
    expect(physical.queue.list.map((o: Order) => o.id)).toContain(steam.id)
    expect(physical.queue.list.map((o: Order) => o.id)).not.toContain(apple.id)
    expect(physical.filters).toMatchObject({ type: 'physical', brand: '' })
    const bad = await load(queue.loader, '/ops/review?type=plastic', jar)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).problem).toMatch(/^type:/)
  })

  it('pages by 50 with Previous and Next links that keep the filters; a bad page is said in words', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const token = await seller()
    for (let i = 0; i < 51; i++) await sold(api, token)
    const first = await jsonOf(await load(queue.loader, '/ops/review?type=ecode', jar))
    const total = first.queue.total
    expect(total).toBeGreaterThan(50)
    expect(first.queue.list).toHaveLength(50)
    expect(first.paging).toEqual({ label: `1–50 of ${total}`, previous: null, next: '/ops/review?type=ecode&page=2' })
    const second = await jsonOf(await load(queue.loader, first.paging.next, jar))
    expect(second.paging).toEqual({
      label: `51–${Math.min(100, total)} of ${total}`,
      previous: '/ops/review?type=ecode',
      next: total > 100 ? '/ops/review?type=ecode&page=3' : null,
    })
    expect(second.filters.type).toBe('ecode')
    const seen = new Set(first.queue.list.map((o: Order) => o.id))
    expect(second.queue.list.length).toBeGreaterThan(0)
    for (const o of second.queue.list as Order[]) expect(seen.has(o.id)).toBe(false)
    for (const bad of ['abc', '0', '1.5']) {
      const res = await load(queue.loader, `/ops/review?type=ecode&page=${bad}`, jar)
      expect(res.status).toBe(400)
      expect((await jsonOf(res)).problem).toBe('page: a whole page number from 1 to 100000')
    }
  })

  it('is not for a payouts person: 403 on the queue, the order and the photo', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const order = await sold(api, await seller())
    expect((await load(queue.loader, '/ops/review', jar)).status).toBe(403)
    expect((await load(desk.loader, page(order.id), jar, { orderId: order.id })).status).toBe(403)
    expect((await act(jar, order.id, { intent: 'claim' })).status).toBe(403)
    expect((await load(photo.loader, '/ops/photo/x', jar, { id: 'x' })).status).toBe(403)
  })
})

describe('one order', () => {
  it('claims; another reviewer sees who holds it and is refused the claim', async () => {
    const [ada, bo] = [await staffJar(api, 'reviewer'), await staffJar(api, 'reviewer')]
    const order = await sold(api, await seller())
    const claimed = await act(ada.jar, order.id, { intent: 'claim' })
    expect(claimed).toHaveRedirect(page(order.id))
    expect(await staffToastOf(claimed)).toMatchObject({ type: 'success' })
    const seen = await open(bo.jar, order.id)
    expect(seen.order.claimedBy).toBe(`staff:${ada.staff.email}`)
    const refused = await act(bo.jar, order.id, { intent: 'claim' })
    expect(refused.status).toBe(400)
    expect((await jsonOf(refused)).error).toContain(`${ada.staff.email} is reviewing this order`)
  })

  it('reveals the e-code only after the claim, on request, and never in the page load', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const code = newCode()
    const order = await sold(api, await seller(), { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    const early = await act(jar, order.id, { intent: 'reveal' })
    expect(early.status).toBe(400)
    expect(JSON.stringify(await jsonOf(early))).not.toContain(code)
    await act(jar, order.id, { intent: 'claim' })
    const loaded = await load(desk.loader, page(order.id), jar, { orderId: order.id })
    expect(await loaded.text()).not.toContain(code)
    const shown = await jsonOf(await act(jar, order.id, { intent: 'reveal' }))
    expect(Object.values(shown.codes)).toEqual([[code]])
  })

  it('completes once: the seller is paid the quote, and the next waiting order opens', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const token = await seller()
    const order = await sold(api, token)
    const before = (await walletInfo(api, token)).balance
    await act(jar, order.id, { intent: 'claim' })
    const done = await act(jar, order.id, { intent: 'complete', note: '' })
    expect(done.status).toBe(302)
    expect(done.headers.get('Location')).toMatch(/^\/ops\/review/)
    expect(done.headers.get('Location')).not.toBe(page(order.id))
    const again = await act(jar, order.id, { intent: 'complete' })
    expect([302, 400]).toContain(again.status)
    expect((await walletInfo(api, token)).balance - before).toBe(order.quotedPayout)
  })

  it('proposes a lower payout for a card with its reason', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const token = await seller()
    const order = await sold(api, token)
    await act(jar, order.id, { intent: 'claim' })
    const cardId = order.cards[0].cardId
    const tooHigh = await act(jar, order.id, {
      intent: 'propose',
      reason: 'Scratched code',
      [`payout-${cardId}`]: '99999999',
      [`reason-${cardId}`]: 'UNREADABLE',
    })
    expect(tooHigh.status).toBe(400)
    const lower = (order.cards[0].quotedPayout / 200).toFixed(2)
    const ok = await act(jar, order.id, {
      intent: 'propose',
      reason: 'Part of the code is scratched',
      [`payout-${cardId}`]: lower,
      [`reason-${cardId}`]: 'UNREADABLE',
    })
    expect(ok.status).toBe(302)
    const seen = (await api.get<Order>(`/v1/order/detail?id=${order.id}`, { token })).body.data
    expect(seen.status).toBe('proposed')
    expect(seen.proposal?.reason).toBe('Part of the code is scratched')
    expect(seen.cards[0]).toMatchObject({ proposedPayout: Math.round(order.cards[0].quotedPayout / 2), reasonCode: 'UNREADABLE' })
  })

  it('rejects with a reason, a note and a proof photo uploaded from the console; the seller sees them', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const token = await seller()
    const order = await sold(api, token)
    await act(jar, order.id, { intent: 'claim' })
    const form = new FormData()
    form.append('intent', 'reject')
    form.append('reasonCode', 'ALREADY_USED')
    form.append('note', 'The balance was zero when we tried it')
    form.append('proof', new Blob([await jpeg()], { type: 'image/jpeg' }), 'proof.jpg')
    const request = new Request(new URL(page(order.id), ORIGIN), { method: 'POST', body: form, headers: { cookie: jar.header() ?? '' } })
    const rejected = await call(desk.action, request, { orderId: order.id }, jar)
    expect(rejected.status).toBe(302)
    const seen = (await api.get<Order>(`/v1/order/detail?id=${order.id}`, { token })).body.data
    expect(seen).toMatchObject({
      status: 'rejected',
      rejection: { reasonCode: 'ALREADY_USED' },
      operatorNote: 'The balance was zero when we tried it',
    })
    expect(seen.proofImageId).toBeTruthy()
    const proof = await load(photo.loader, `/ops/photo/${seen.proofImageId}`, jar, { id: seen.proofImageId! })
    expect(proof.headers.get('content-type')).toBe('image/jpeg')
    expect(proof.headers.get('cache-control')).toContain('no-store')
  })

  it('refuses a rejection without a reason, in words', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const order = await sold(api, await seller())
    await act(jar, order.id, { intent: 'claim' })
    const res = await act(jar, order.id, { intent: 'reject', note: 'no reason' })
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).error).toBe('Choose the reason for the rejection')
  })
})
