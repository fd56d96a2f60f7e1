import { describe, expect, it } from 'vitest'
import { rateChangePercent } from '#contract/catalogue'
import * as home from '~/routes/_index'
import * as catalogue from '~/routes/catalogue'
import * as plaza from '~/routes/trading-plaza'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { ops, rateOf, sold, useSellingApi } from '../support/selling'
import { jsonOf, load, signedInJar } from '../support/web'

/** The rates board (/trading-plaza) and Home's featured cards and rate checker, against the real api. */
const api = useSellingApi({ web: true })
const DAY = 86_400_000

type Group = {
  brand: { brandId: string; name: string }
  rates: Array<{ brandId: string; country: string; cardType: string; rate: string; rate24hAgo: string | null }>
}

async function member() {
  const { token } = await seedUser(api, { email: newEmail('plaza') })
  return signedInJar(token)
}

describe('/trading-plaza', () => {
  it('shows every brand × country × type, grouped by brand, the United States first', async () => {
    const jar = await member()
    const data = await jsonOf(await load(plaza.loader, '/trading-plaza', jar))
    const board = (await api.get<unknown[]>('/v1/giftcard/rates')).body.data
    expect(data.count).toBe(board.length)
    // Paged by brand: every page's brands together are the whole board, each brand on one page.
    const groups: Group[] = [...data.groups]
    for (let page = 2; page <= data.pages; page++)
      groups.push(...(await jsonOf(await load(plaza.loader, `/trading-plaza?page=${page}`, jar))).groups)
    expect(groups.length).toBeGreaterThanOrEqual(12)
    expect(new Set(groups.map((g) => g.brand.brandId)).size).toBe(groups.length)
    const apple = groups.find((g: Group) => g.brand.brandId === 'apple') as Group
    expect(apple.rates[0].country).toBe('US')
    expect(groups.flatMap((g: Group) => g.rates)).toHaveLength(board.length)
  })

  it('pages the board a few brands at a time, and reads an odd page as the nearest one', async () => {
    const jar = await member()
    const first = await jsonOf(await load(plaza.loader, '/trading-plaza', jar))
    expect(first.page).toBe(1)
    expect(first.pages).toBeGreaterThan(1)
    expect(first.groups.length).toBeLessThanOrEqual(4)
    const last = await jsonOf(await load(plaza.loader, `/trading-plaza?page=${first.pages}`, jar))
    expect(last.page).toBe(first.pages)
    expect(last.groups[0].brand.brandId).not.toBe(first.groups[0].brand.brandId)
    expect((await jsonOf(await load(plaza.loader, '/trading-plaza?page=999', jar))).page).toBe(first.pages)
    for (const odd of ['0', '-1', 'two', '1.5'])
      expect((await jsonOf(await load(plaza.loader, `/trading-plaza?page=${odd}`, jar))).page).toBe(1)
    // A search narrows to one page.
    expect((await jsonOf(await load(plaza.loader, '/trading-plaza?q=steam&page=3', jar))).pages).toBe(1)
  })

  it('says the change over the last 24 hours from the rate that held a day ago', async () => {
    const jar = await member()
    const before = await rateOf(api, 'walmart', 'US', 'ecode')
    api.clock.advance(DAY + 1_000)
    await ops(api).setRate('walmart', 'US', 'ecode', '1100.00')
    const data = await jsonOf(await load(plaza.loader, '/trading-plaza?q=walmart&country=US&cardType=ecode', jar))
    expect(data.groups).toHaveLength(1)
    const [rate] = data.groups[0].rates
    expect(rate).toMatchObject({ rate: '1100.00', rate24hAgo: before.rate })
    expect(rateChangePercent(rate.rate, rate.rate24hAgo)).not.toBe(0)
  })

  it('searches and filters with a GET form; anything unknown reads as “all”, never an error', async () => {
    const jar = await member()
    const steam = await jsonOf(await load(plaza.loader, '/trading-plaza?q=STE', jar))
    expect(steam.groups.map((g: Group) => g.brand.brandId)).toEqual(['steam'])
    const gb = await jsonOf(await load(plaza.loader, '/trading-plaza?country=gb&cardType=ecode', jar))
    expect(gb.filters).toEqual({ q: '', country: 'GB', cardType: 'ecode' })
    expect(
      gb.groups.flatMap((g: Group) => g.rates).every((r: Group['rates'][number]) => r.country === 'GB' && r.cardType === 'ecode'),
    ).toBe(true)
    const odd = await jsonOf(await load(plaza.loader, `/trading-plaza?q=${'x'.repeat(500)}&country=ZZ&cardType=gold`, jar))
    expect(odd.filters).toEqual({ q: 'x'.repeat(40), country: '', cardType: '' })
    expect(odd.groups).toEqual([])
  })

  it('is for signed-in people: a visitor is sent to sign in and comes back', async () => {
    expect(await load(plaza.loader, '/trading-plaza?q=apple')).toHaveRedirect(
      `/login?redirectTo=${encodeURIComponent('/trading-plaza?q=apple')}`,
    )
  })
})

describe('Home', () => {
  it('a visitor gets the featured cards, one line a brand, and not the whole catalogue', async () => {
    const data = await jsonOf(await load(home.loader, '/'))
    expect(data.featured.map((c: { brandId: string }) => c.brandId)).toEqual(expect.arrayContaining(['apple', 'steam', 'amazon']))
    expect(data.featured.map((c: { brandId: string }) => c.brandId)).not.toContain('vanilla')
    expect(Object.keys(data.featured[0]).sort()).toEqual(['bestRate', 'brandId', 'etaMinutes', 'logo', 'name'])
  })

  it('the rate checker reads the whole catalogue from /catalogue, in our country order', async () => {
    const res = await load(catalogue.loader, '/catalogue')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=30')
    const data = await jsonOf(res)
    expect(data.brands.length).toBeGreaterThanOrEqual(12)
    expect(data.brands[0].countries[0].country).toBe('US')
    expect(data.rates.length).toBeGreaterThan(20)
  })

  it('a signed-in person gets their open orders with the user index; a visitor has none', async () => {
    const { token } = await seedUser(api, { email: newEmail('home') })
    const jar = await signedInJar(token)
    expect((await jsonOf(await load(home.loader, '/', jar))).openOrders).toEqual({ count: 0, latest: [] })
    const order = await sold(api, token)
    const data = await jsonOf(await load(home.loader, '/', jar))
    expect(data.openOrders.count).toBe(1)
    expect(data.openOrders.latest[0]).toMatchObject({ id: order.id, status: 'pending', brandId: order.brandId })
    expect((await jsonOf(await load(home.loader, '/'))).openOrders).toBeNull()
  })

  it('a signed-in person gets the featured cards from their user info (giftCardList)', async () => {
    const data = await jsonOf(await load(home.loader, '/', await member()))
    const apple = data.featured.find((c: { brandId: string }) => c.brandId === 'apple')
    expect(apple).toMatchObject({ name: 'Apple', logo: { initials: 'AP' }, etaMinutes: 15 })
    const board = [await rateOf(api, 'apple', 'US', 'ecode'), await rateOf(api, 'apple', 'US', 'physical')]
    expect(Number(apple.bestRate.rate)).toBe(Math.max(...board.map((r) => Number(r.rate))))
  })
})
