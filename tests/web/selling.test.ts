import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { payoutFor } from '#contract/catalogue'
import type { Page } from '#contract/envelope'
import type { Order, OrderSummary } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import * as sell from '~/routes/order.sell/route'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { newCode, ops, photo, rateOf, sold, useSellingApi } from '../support/selling'
import { call, type CookieJar, jsonOf, load, ORIGIN, signedInJar, submit } from '../support/web'

/** /order/sell through its loader and action, as Remix calls them, against the real api. */
const api = useSellingApi({ web: true })
const HERE = '/order/sell'

async function seller() {
  const { user, token } = await seedUser(api, { email: newEmail('seller') })
  return { user, token, jar: await signedInJar(token) }
}

/** The page as the browser gets it for these choices, and the form it would post. */
async function screen(jar: CookieJar | undefined, query = 'brandId=apple&country=US&cardType=ecode') {
  const data = await jsonOf(await load(sell.loader, `${HERE}?${query}`, jar))
  const rate = data.rates.find(
    (r: { country: string; cardType: string }) => r.country === data.choice.country?.country && r.cardType === data.choice.offer?.cardType,
  )
  return {
    data,
    rate,
    form: (cards: Record<string, string>, patch: Record<string, string> = {}) => ({
      brandId: data.choice.brand.brandId,
      country: data.choice.country.country,
      cardType: data.choice.offer.cardType,
      quotedRate: rate.rate,
      requestId: data.requestId,
      intent: 'sell',
      ...cards,
      ...patch,
    }),
  }
}

const orders = async (token: string) => (await api.get<Page<OrderSummary>>('/v1/order/page?pageSize=50', { token })).body.data
const orderOf = async (token: string, location: string) => {
  const id = new URL(location, ORIGIN).searchParams.get('id')!
  return (await api.get<Order>(`/v1/order/detail?id=${id}`, { token })).body.data
}

describe('the page (loader)', () => {
  it('shows a visitor every brand to choose from, and a fresh request id', async () => {
    const { data } = await screen(undefined, '')
    expect(data.brands.length).toBeGreaterThanOrEqual(12)
    expect(data.brands.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(['Apple', 'Steam', 'Amazon', 'PlayStation']))
    expect(data.choice).toEqual({ brand: null, country: null, offer: null, notice: null })
    expect(data.signedIn).toBe(false)
    expect(data.requestId).toMatch(/^[0-9a-f]{32}$/)
    expect((await screen(undefined, '')).data.requestId).not.toBe(data.requestId)
  })

  it('takes brand → country → type from the URL, with the rate and the face values to check', async () => {
    const { data, rate } = await screen(undefined, 'brandId=apple&country=us&cardType=ecode&faceValue=100&faceValue=25.50')
    expect(data.choice.brand.brandId).toBe('apple')
    expect(data.choice.country).toMatchObject({ country: 'US', currency: 'USD' })
    expect(data.choice.offer).toMatchObject({ cardType: 'ecode', minFaceValue: 1_000, maxFaceValue: 50_000 })
    expect(rate).toEqual(await rateOf(api, 'apple', 'US', 'ecode'))
    expect(data.faceValues).toEqual(['100', '25.50'])
  })

  it('the first country and type stand in for missing ones; the United States comes first', async () => {
    const { data } = await screen(undefined, 'brandId=apple')
    expect(data.choice.country.country).toBe('US')
    expect(data.choice.offer.cardType).toBeDefined()
    expect(data.choice.notice).toBeNull()
  })

  it('says which choice is not bought, in the api’s words, and never fails on it', async () => {
    expect((await screen(undefined, 'brandId=nope')).data.choice).toMatchObject({ brand: null, notice: Refusals.UNKNOWN_BRAND.msg })
    const country = (await screen(undefined, 'brandId=sephora&country=DE')).data.choice
    expect(country.notice).toBe('We do not buy Sephora cards from that country. Choose another country')
    expect(country.country.country).toBe('US')
    const type = (await screen(undefined, 'brandId=apple&country=CA&cardType=ecode')).data.choice
    expect(type.notice).toContain('We do not buy Apple Canada cards as e-codes')
    expect(type.offer.cardType).toBe('physical')
    // Face values in the URL are amounts or nothing: anything else never comes back.
    expect((await screen(undefined, 'brandId=apple&faceValue=<script>&faceValue=1%2C000')).data.faceValues).toEqual(['', '1,000'])
  })
})

describe('a visitor', () => {
  it('“Check rate” (without JavaScript) answers the face values, and sells nothing', async () => {
    const { form } = await screen(undefined)
    const res = await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[1].faceValue': '50' }, { intent: 'check' }))
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).cards).toEqual([
      { faceValue: '100', imageIds: [] },
      { faceValue: '50', imageIds: [] },
    ])
  })

  it('who submits goes to sign in and comes back with the choices, never the codes', async () => {
    const { form } = await screen(undefined)
    const code = newCode()
    const pin = newCode() // never a bare number, which a signed cookie or a time could spell by chance
    const res = await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].code': code, 'cards[0].pin': pin }))
    expect(res).toHaveRedirect(
      `/login?${new URLSearchParams({ redirectTo: `${HERE}?brandId=apple&country=US&cardType=ecode&faceValue=100` })}`,
    )
    await expect(res).toSendToast({ type: 'info' })
    const everything = JSON.stringify([...res.headers])
    expect(everything).not.toContain(code)
    expect(everything).not.toContain(pin)
  })
})

describe('selling e-codes', () => {
  it('makes the order at the quoted rate and goes to the success page', async () => {
    const { token, jar } = await seller()
    const { form, rate } = await screen(jar)
    const res = await submit(
      sell.action,
      HERE,
      form({
        'cards[0].faceValue': '100',
        'cards[0].code': 'abcd-efgh 2345',
        'cards[1].faceValue': '25.50',
        'cards[1].code': newCode(),
        'cards[1].pin': '4821',
      }),
      jar,
    )
    expect(res).toHaveRedirect(/^\/order\/submit-success\?id=[\w-]+$/)
    await expect(res).toSendToast({ type: 'success', message: 'Order submitted' })
    const order = await orderOf(token, res.headers.get('Location')!)
    expect(order).toMatchObject({ status: 'pending', quotedRate: rate.rate, cardCount: 2, faceValueTotal: 12_550 })
    // The same number the page showed as you typed: payoutFor, the one rule.
    expect(order.quotedPayout).toBe(payoutFor(10_000, rate.rate, 'USD', 'NGN') + payoutFor(2_550, rate.rate, 'USD', 'NGN'))
    expect(order.cards[0].maskedCodes).toEqual(['•••• 2345'])
  })

  it('the same form posted twice (a double tap, a reload) makes one order', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar)
    const fields = form({ 'cards[0].faceValue': '50', 'cards[0].code': newCode() })
    const [first, second] = await Promise.all([submit(sell.action, HERE, fields, jar), submit(sell.action, HERE, fields, jar)])
    expect(first).toHaveRedirect(/^\/order\/submit-success\?id=/)
    expect(second.headers.get('Location')).toBe(first.headers.get('Location'))
    expect((await submit(sell.action, HERE, fields, jar)).headers.get('Location')).toBe(first.headers.get('Location'))
    expect((await orders(token)).total).toBe(1)
  })

  it('the same request id with other cards gets a fresh id to start again, and sells nothing more', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar)
    await submit(sell.action, HERE, form({ 'cards[0].faceValue': '50', 'cards[0].code': newCode() }), jar)
    const res = await submit(sell.action, HERE, form({ 'cards[0].faceValue': '60', 'cards[0].code': newCode() }), jar)
    expect(res.status).toBe(409)
    const reply = await jsonOf(res)
    expect(reply.formError).toBe(Refusals.IDEMPOTENCY_KEY_REUSED.msg)
    expect(reply.requestId).toMatch(/^[0-9a-f]{32}$/)
    expect((await orders(token)).total).toBe(1)
  })

  it('a rate that moved is shown with the new payout and sold only once confirmed', async () => {
    const { token, jar } = await seller()
    const { form, rate } = await screen(jar, 'brandId=xbox&country=US&cardType=ecode')
    await ops(api).setRate('xbox', 'US', 'ecode', '987.65')
    const fields = form({ 'cards[0].faceValue': '50.00', 'cards[0].code': newCode() })
    const res = await submit(sell.action, HERE, fields, jar)
    expect(res.status).toBe(409)
    const reply = await jsonOf(res)
    expect(reply.formError).toMatch(
      /^The rate changed to ₦987\.65 per US\$1\.00 \(you saw .+\): you would get ₦49,382\.50\. Check the new payout and confirm$/,
    )
    expect(reply.newRate).toMatchObject({ brandId: 'xbox', country: 'US', cardType: 'ecode', rate: '987.65' })
    expect(rate.rate).not.toBe('987.65')
    expect((await orders(token)).total).toBe(0)
    // Confirmed: posted again with the new rate (the page puts it in the hidden field).
    const confirmed = await submit(sell.action, HERE, { ...fields, quotedRate: reply.newRate.rate }, jar)
    expect(confirmed).toHaveRedirect(/^\/order\/submit-success/)
    expect(await orderOf(token, confirmed.headers.get('Location')!)).toMatchObject({ quotedRate: '987.65', quotedPayout: 4_938_250 })
  })

  it('a code already submitted (by anyone) is refused beside its field, and never sent back', async () => {
    const other = await seller()
    const code = newCode()
    const pin = newCode()
    await sold(api, other.token, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    const { token, jar } = await seller()
    const { form } = await screen(jar)
    const res = await submit(
      sell.action,
      HERE,
      form({
        'cards[0].faceValue': '40',
        'cards[0].code': newCode(),
        'cards[1].faceValue': '40',
        'cards[1].code': code.toLowerCase(),
        'cards[1].pin': pin,
      }),
      jar,
    )
    expect(res.status).toBe(400)
    const text = await res.text()
    const reply = JSON.parse(text)
    expect(reply.errors['cards[1].code']).toEqual([`Card 2: ${Refusals.CODE_ALREADY_SUBMITTED.msg}`])
    expect(reply.codesCleared).toBe(true)
    expect(reply.cards).toEqual([
      { faceValue: '40', imageIds: [] },
      { faceValue: '40', imageIds: [] },
    ])
    expect(text.toUpperCase()).not.toContain(code)
    expect(text.toUpperCase()).not.toContain(pin)
    expect((await orders(token)).total).toBe(0)
  })

  it('face values outside the card’s limits or not one of its values are refused with the limits', async () => {
    const { jar } = await seller()
    const apple = await screen(jar)
    const low = await jsonOf(await submit(sell.action, HERE, apple.form({ 'cards[0].faceValue': '5', 'cards[0].code': newCode() }), jar))
    expect(low.errors['cards[0].faceValue']).toEqual(['The face value must be between US$10.00 and US$500.00'])
    const typo = await jsonOf(await submit(sell.action, HERE, apple.form({ 'cards[0].faceValue': '1O0', 'cards[0].code': newCode() }), jar))
    expect(typo.errors['cards[0].faceValue']).toEqual(['Enter the face value like 100 or 25.50'])
    const steam = await screen(jar, 'brandId=steam&country=US&cardType=ecode')
    const odd = await jsonOf(await submit(sell.action, HERE, steam.form({ 'cards[0].faceValue': '7', 'cards[0].code': newCode() }), jar))
    expect(odd.errors['cards[0].faceValue'][0]).toMatch(/^This card comes in US\$5\.00, US\$10\.00, .+\. Choose one of them$/)
  })

  it('an empty or malformed code, a bad PIN, an unknown brand: a clear message each, nothing sold', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar)
    const empty = await jsonOf(await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].code': '' }), jar))
    expect(empty.errors['cards[0].code']).toEqual(['Type the code of the card'])
    const short = await jsonOf(
      await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].code': 'ab$1', 'cards[0].pin': '!' }), jar),
    )
    expect(short.errors['cards[0].code']).toEqual(['The code must be 6 to 64 letters and digits'])
    expect(short.errors['cards[0].pin']).toEqual(['The PIN must be 3 to 16 letters and digits'])
    const twice = newCode()
    const same = await jsonOf(
      await submit(
        sell.action,
        HERE,
        form({ 'cards[0].faceValue': '100', 'cards[0].code': twice, 'cards[1].faceValue': '100', 'cards[1].code': twice }),
        jar,
      ),
    )
    expect(same.errors['cards[1].code']).toEqual(['This is the same code as card 1'])
    const brand = await submit(
      sell.action,
      HERE,
      form({ 'cards[0].faceValue': '100', 'cards[0].code': newCode() }, { brandId: 'nope' }),
      jar,
    )
    expect(brand.status).toBe(400)
    expect((await jsonOf(brand)).formError).toBe(Refusals.UNKNOWN_BRAND.msg)
    const rate = await jsonOf(
      await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].code': newCode() }, { quotedRate: 'lots' }), jar),
    )
    expect(rate.errors.quotedRate[0]).toContain('Rate must be a positive decimal number')
    expect((await orders(token)).total).toBe(0)
  })

  it('without JavaScript, “Add another card” and “Remove” change the list and sell nothing', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar)
    const added = await jsonOf(
      await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].code': newCode() }, { intent: 'add' }), jar),
    )
    expect(added.cards).toEqual([
      { faceValue: '100', imageIds: [] },
      { faceValue: '100', imageIds: [] },
    ])
    expect(added.codesCleared).toBe(true)
    const removed = await jsonOf(
      await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[1].faceValue': '50' }, { intent: 'remove:0' }), jar),
    )
    expect(removed.cards).toEqual([{ faceValue: '50', imageIds: [] }])
    expect((await orders(token)).total).toBe(0)
  })
})

describe('selling physical cards with photos', () => {
  const pngOf = (r: number) =>
    sharp({ create: { width: 64, height: 40, channels: 3, background: { r, g: 40, b: 90 } } })
      .png()
      .toBuffer()

  /** The sell form as a browser without JavaScript posts it: multipart, the photos in it. */
  function multipart(
    jar: CookieJar,
    fields: Record<string, string>,
    files: Array<{ name: string; bytes: Uint8Array; filename?: string; type?: string }>,
  ) {
    const body = new FormData()
    for (const [k, v] of Object.entries(fields)) body.append(k, v)
    for (const f of files) body.append(f.name, new Blob([f.bytes], { type: f.type ?? 'image/png' }), f.filename ?? 'card.png')
    return new Request(new URL(HERE, ORIGIN), { method: 'POST', body, headers: { Cookie: jar.header() } })
  }

  it('streams each photo to the api and sells the card with them', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar, 'brandId=amazon&country=US&cardType=physical')
    const req = multipart(jar, form({ 'cards[0].faceValue': '100', 'cards[0].imageIds': '' }), [
      { name: 'cards[0].photos', bytes: await pngOf(10) },
      { name: 'cards[0].photos', bytes: await pngOf(200) },
    ])
    const res = await call(sell.action, req)
    expect(res).toHaveRedirect(/^\/order\/submit-success\?id=/)
    const order = await orderOf(token, res.headers.get('Location')!)
    expect(order).toMatchObject({ cardType: 'physical', cardCount: 1 })
    expect(order.cards[0].imageIds).toHaveLength(2)
  })

  it('a file that is not a photo is refused beside the card; the good photo is kept for the next try', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar, 'brandId=amazon&country=US&cardType=physical')
    const req = multipart(jar, form({ 'cards[0].faceValue': '100' }), [
      { name: 'cards[0].photos', bytes: await pngOf(30) },
      {
        name: 'cards[0].photos',
        bytes: new TextEncoder().encode('MZ this is not a picture at all'),
        filename: 'card.jpg',
        type: 'image/jpeg',
      },
    ])
    const res = await call(sell.action, req)
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.errors['cards[0].photos']).toEqual([Refusals.NOT_AN_IMAGE.msg])
    expect(reply.cards[0].imageIds).toHaveLength(1)
    expect((await orders(token)).total).toBe(0)
    // Sold on the next post with the kept id, and no photo sent again.
    const again = await submit(
      sell.action,
      HERE,
      form({ 'cards[0].faceValue': '100', 'cards[0].imageIds': reply.cards[0].imageIds.join(',') }),
      jar,
    )
    expect(again).toHaveRedirect(/^\/order\/submit-success/)
  })

  it('someone else’s photo id is refused, and no card without a photo is sold', async () => {
    const other = await seller()
    const theirs = await photo(api, other.token)
    const { jar } = await seller()
    const { form } = await screen(jar, 'brandId=amazon&country=US&cardType=physical')
    const stolen = await jsonOf(await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100', 'cards[0].imageIds': theirs }), jar))
    expect(stolen.errors['cards[0].photos']).toEqual([Refusals.IMAGE_NOT_FOUND.msg])
    const none = await jsonOf(await submit(sell.action, HERE, form({ 'cards[0].faceValue': '100' }), jar))
    expect(none.errors['cards[0].photos']).toEqual(['Add a photo of each physical card'])
  })

  it('a photo over 5 MB stops the reading at once: the rest of the body is never read', async () => {
    const { token, jar } = await seller()
    const { form } = await screen(jar, 'brandId=amazon&country=US&cardType=physical')
    const boundary = 'xx-test-boundary'
    const head = Object.entries(form({ 'cards[0].faceValue': '100' }))
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('')
    const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="cards[0].photos"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`
    let pulled = 0
    const chunk = new Uint8Array(64 * 1024).fill(7)
    const TOTAL = 60 * 1024 * 1024
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head + fileHead))
      },
      pull(controller) {
        if (pulled >= TOTAL) return controller.close()
        pulled += chunk.length
        controller.enqueue(chunk)
      },
    })
    const req = new Request(new URL(HERE, ORIGIN), {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Cookie: jar.header(), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit)
    const res = await call(sell.action, req)
    expect(res.status).toBe(413)
    expect(res.headers.get('Connection')).toBe('close')
    expect((await jsonOf(res)).formError).toBe('This photo is larger than 5 MB. Upload a smaller one')
    expect(pulled).toBeLessThan(7 * 1024 * 1024)
    expect((await orders(token)).total).toBe(0)
  })

  it('a plain form larger than any form of ours is refused (413) before it is read whole', async () => {
    const { jar } = await seller()
    const res = await submit(sell.action, HERE, { brandId: 'apple', junk: 'x'.repeat(400 * 1024) }, jar)
    expect(res.status).toBe(413)
  })
})
