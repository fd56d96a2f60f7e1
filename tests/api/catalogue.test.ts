import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { catalogueApi, formatRate, parseRate, payoutFor, rateChangePercent, type Brand, type Quote, type Rate } from '#contract/catalogue'
import { MAX_AMOUNT } from '#contract/money'
import { reviewDeskApi } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { useSellingApi, rateOf } from '../support/selling'
import { TEST_STAFF_ACTOR } from '../support/staff'
import { admin } from '../support/wallet'

/** The catalogue and the rates board (public), quotes, and operators' rates and ETAs. */
const api = useSellingApi()
const HOUR = 3_600_000

describe('the catalogue', () => {
  it('lists at least 12 brands with drawn logo tiles, countries with their currency, card types and face-value limits', async () => {
    const res = await api.get<Brand[]>('/v1/giftcard/list')
    expect(res.status).toBe(200)
    const brands = catalogueApi.list.data.parse(res.body.data)
    expect(brands.length).toBeGreaterThanOrEqual(12)
    const names = brands.map((b) => b.name)
    for (const n of [
      'Apple',
      'Steam',
      'Amazon',
      'Google Play',
      'Razer Gold',
      'Sephora',
      'Nordstrom',
      'Vanilla',
      'eBay',
      'Walmart',
      'Xbox',
      'PlayStation',
    ]) {
      expect(names).toContain(n)
    }
    for (const b of brands) {
      expect(b.logo.initials).toMatch(/^[A-Z]{2}$/)
      expect(b.logo.background).toMatch(/^#[0-9A-F]{6}$/i)
      expect(b.etaMinutes).toBeGreaterThan(0)
      expect(b.countries.length).toBeGreaterThan(0)
      for (const c of b.countries) {
        expect(['USD', 'GBP', 'EUR', 'CAD', 'AUD']).toContain(c.currency)
        for (const t of c.cardTypes) expect(t.maxFaceValue).toBeGreaterThanOrEqual(t.minFaceValue)
      }
    }
    const apple = brands.find((b) => b.brandId === 'apple')!
    expect(apple.countries.find((c) => c.country === 'GB')).toMatchObject({ countryName: 'United Kingdom', currency: 'GBP' })
    const steamUs = brands.find((b) => b.brandId === 'steam')!.countries.find((c) => c.country === 'US')!
    expect(steamUs.cardTypes.find((t) => t.cardType === 'physical')!.denominations).toEqual([500, 1000, 2000, 2500, 5000, 7500, 10000])
    expect(brands.filter((b) => b.featured).length).toBeGreaterThanOrEqual(4)
  })

  it('answers the rates board to anyone: every brand × country × type, with the rate of 24 hours ago', async () => {
    const res = await api.get<Rate[]>('/v1/giftcard/rates')
    const rates = catalogueApi.rates.data.parse(res.body.data)
    const brands = (await api.get<Brand[]>('/v1/giftcard/list')).body.data
    const variants = brands.flatMap((b) => b.countries.flatMap((c) => c.cardTypes.map((t) => `${b.brandId}|${c.country}|${t.cardType}`)))
    expect(rates.map((r) => `${r.brandId}|${r.country}|${r.cardType}`).sort()).toEqual(variants.sort())
    for (const r of rates) {
      expect(r.payoutCurrency).toBe('NGN')
      expect(parseRate(r.rate)).toBeGreaterThan(0)
      expect(r.setAt).toBeLessThanOrEqual(api.clock.now())
      // Seeded three hours ago, with a history reaching back past 24 hours.
      expect(r.rate24hAgo).not.toBeNull()
    }
    const appleUs = rates.find((r) => r.brandId === 'apple' && r.country === 'US' && r.cardType === 'physical')!
    // Realistic naira rates: hundreds to a couple of thousand naira per unit.
    expect(Number(appleUs.rate)).toBeGreaterThan(500)
    expect(Number(appleUs.rate)).toBeLessThan(3000)
    // The board moves: some rates went up and some down over the day.
    const changes = rates.map((r) => rateChangePercent(r.rate, r.rate24hAgo)!)
    expect(changes.some((c) => c > 0)).toBe(true)
    expect(changes.some((c) => c < 0)).toBe(true)
  })

  it('filters the board', async () => {
    const rates = (await api.get<Rate[]>('/v1/giftcard/rates?brandId=steam&country=gb')).body.data
    expect(rates.map((r) => r.cardType).sort()).toEqual(['ecode', 'physical'])
    expect((await api.get('/v1/giftcard/rates?cardType=paper')).status).toBe(400)
  })
})

describe('quotes', () => {
  it('prices a face value with the one payout rule', async () => {
    const rate = await rateOf(api, 'apple', 'US', 'physical')
    const res = await api.get<Quote>('/v1/giftcard/quote?brandId=apple&country=US&cardType=physical&faceValue=12345')
    expect(res.body.data).toEqual({
      brandId: 'apple',
      country: 'US',
      cardType: 'physical',
      currency: 'USD',
      faceValue: 12345,
      rate: rate.rate,
      setAt: rate.setAt,
      payoutCurrency: 'NGN',
      payout: payoutFor(12345, rate.rate, 'USD', 'NGN'),
    })
  })

  it.each([
    ['brandId=nope&country=US&cardType=physical&faceValue=1000', Refusals.UNKNOWN_BRAND.code, Refusals.UNKNOWN_BRAND.msg],
    [
      'brandId=apple&country=FR&cardType=physical&faceValue=1000',
      Refusals.UNKNOWN_COUNTRY.code,
      'We do not buy Apple cards from that country. Choose another country',
    ],
    [
      'brandId=apple&country=DE&cardType=physical&faceValue=1000',
      Refusals.UNKNOWN_CARD_TYPE.code,
      'We do not buy Apple Germany cards as physical cards. Choose the other type',
    ],
    [
      'brandId=apple&country=US&cardType=physical&faceValue=500',
      Refusals.FACE_VALUE_OUT_OF_RANGE.code,
      'The face value must be between US$10.00 and US$500.00',
    ],
    [
      'brandId=apple&country=US&cardType=physical&faceValue=50001',
      Refusals.FACE_VALUE_OUT_OF_RANGE.code,
      'The face value must be between US$10.00 and US$500.00',
    ],
    [
      'brandId=steam&country=US&cardType=physical&faceValue=3000',
      Refusals.FACE_VALUE_NOT_LISTED.code,
      'This card comes in US$5.00, US$10.00, US$20.00, US$25.00, US$50.00, US$75.00, US$100.00. Choose one of them',
    ],
  ])('refuses %s clearly', async (query, code, msg) => {
    const res = await api.get(`/v1/giftcard/quote?${query}`)
    expect(res.body).toEqual({ code, msg, data: null })
  })

  it('refuses malformed queries with 400 naming the field', async () => {
    expect((await api.get('/v1/giftcard/quote?brandId=apple&country=US&cardType=physical&faceValue=ten')).body.msg).toMatch(/^faceValue: /)
    expect((await api.get('/v1/giftcard/quote?brandId=apple&country=USA&cardType=physical&faceValue=1000')).body.msg).toBe(
      'country: Choose the country of the card',
    )
    expect((await api.get('/v1/giftcard/quote?brandId=apple&country=US&cardType=plastic&faceValue=1000')).body.msg).toBe(
      'cardType: Choose the card type: physical or ecode',
    )
  })
})

describe('the payout rule (contract payoutFor)', () => {
  it('is face value × rate rounded down to the minor unit, exactly, for any amounts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.constantFrom('USD', 'GBP', 'EUR', 'JPY'),
        fc.constantFrom('NGN', 'KWD', 'JPY'),
        (face, micro, cardCurrency, payoutCurrency) => {
          // Exact rational check: payout ≤ face × rate < payout + 1, in the payout's minor units.
          const digits = (c: string) =>
            BigInt(new Intl.NumberFormat('en', { style: 'currency', currency: c }).resolvedOptions().maximumFractionDigits!)
          const exactNum = BigInt(face) * BigInt(micro) * 10n ** digits(payoutCurrency)
          const exactDen = 10n ** digits(cardCurrency) * 1_000_000n
          if (exactNum / exactDen > BigInt(MAX_AMOUNT)) {
            expect(() => payoutFor(face, micro, cardCurrency, payoutCurrency)).toThrow(RangeError)
            return
          }
          const payout = payoutFor(face, micro, cardCurrency, payoutCurrency)
          expect(Number.isSafeInteger(payout)).toBe(true)
          expect(BigInt(payout) * exactDen <= exactNum).toBe(true)
          expect((BigInt(payout) + 1n) * exactDen > exactNum).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('known values: rounding down, never up', () => {
    expect(payoutFor(10_000, '1450.555555', 'USD', 'NGN')).toBe(14_505_555)
    expect(payoutFor(10_000, '1450.5', 'USD', 'NGN')).toBe(14_505_000)
    expect(payoutFor(1, '0.999999', 'USD', 'NGN')).toBe(0)
    expect(payoutFor(2_500, '1180', 'GBP', 'NGN')).toBe(2_950_000)
  })

  it('reads and writes rates as decimal strings without floats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000_000 }), (micro) => {
        expect(parseRate(formatRate(micro))).toBe(micro)
      }),
    )
    expect(formatRate(1_450_500_000)).toBe('1450.50')
    expect(formatRate(1_000_001)).toBe('1.000001')
    for (const bad of ['', '0', '-1', '1e3', '1.1234567', '12,5', ' ', 'NaN', '0.0000001', '100000000'])
      expect(parseRate(bad)).toBeUndefined()
  })

  it('percent change against 24 hours ago', () => {
    expect(rateChangePercent('1025', '1000')).toBe(2.5)
    expect(rateChangePercent('985', '1000')).toBe(-1.5)
    expect(rateChangePercent('1000', null)).toBeNull()
  })
})

describe('operators set rates and ETAs', () => {
  it('a new rate is a new row in the history, is current at once, and the old one is the 24-hour reference a day later', async () => {
    const before = await rateOf(api, 'xbox', 'US', 'ecode')
    const set = await admin(api).post<Rate>('/admin/giftcard/rate', { brandId: 'xbox', country: 'US', cardType: 'ecode', rate: '1111.25' })
    expect(reviewDeskApi.setRate.data.parse(set.body.data)).toMatchObject({
      rate: '1111.25',
      setAt: api.clock.now(),
      rate24hAgo: before.rate24hAgo,
    })
    expect((await rateOf(api, 'xbox', 'US', 'ecode')).rate).toBe('1111.25')
    const history = (
      await admin(api).get<{ rate: string; setAt: number; setBy: string }[]>(
        '/admin/giftcard/rate/history?brandId=xbox&country=US&cardType=ecode',
      )
    ).body.data
    expect(history[0]).toEqual({ rate: '1111.25', setAt: api.clock.now(), setBy: TEST_STAFF_ACTOR })
    expect(history.length).toBe(4)
    api.clock.advance(25 * HOUR)
    const later = await rateOf(api, 'xbox', 'US', 'ecode')
    expect(later).toMatchObject({ rate: '1111.25', rate24hAgo: '1111.25' })
    const entry = await api.db.selectFrom('audit_log').selectAll().where('action', '=', 'rate.set').executeTakeFirstOrThrow()
    expect(JSON.parse(entry.after_json!)).toMatchObject({ rate: '1111.25' })
  })

  it('refuses unknown variants and bad rates, changing nothing', async () => {
    const a = admin(api)
    expect((await a.post('/admin/giftcard/rate', { brandId: 'nope', country: 'US', cardType: 'ecode', rate: '1' })).body.code).toBe(
      Refusals.UNKNOWN_BRAND.code,
    )
    expect((await a.post('/admin/giftcard/rate', { brandId: 'apple', country: 'FR', cardType: 'ecode', rate: '1' })).body.code).toBe(
      Refusals.UNKNOWN_COUNTRY.code,
    )
    expect((await a.post('/admin/giftcard/rate', { brandId: 'apple', country: 'DE', cardType: 'physical', rate: '1' })).body.code).toBe(
      Refusals.UNKNOWN_CARD_TYPE.code,
    )
    for (const rate of ['0', '-5', '1.1234567', 'abc', 1200]) {
      const res = await a.post('/admin/giftcard/rate', { brandId: 'apple', country: 'US', cardType: 'ecode', rate })
      expect(res.status).toBe(400)
      expect(res.body.msg).toMatch(/^rate: /)
    }
    // Operators only.
    expect((await api.post('/admin/giftcard/rate', { brandId: 'apple', country: 'US', cardType: 'ecode', rate: '1' })).status).toBe(401)
  })

  it('sets a brand’s review ETA', async () => {
    expect((await admin(api).post('/admin/giftcard/eta', { brandId: 'vanilla', etaMinutes: 90 })).body.data).toEqual({
      brandId: 'vanilla',
      etaMinutes: 90,
    })
    const brands = (await api.get<Brand[]>('/v1/giftcard/list')).body.data
    expect(brands.find((b) => b.brandId === 'vanilla')!.etaMinutes).toBe(90)
    expect((await admin(api).post('/admin/giftcard/eta', { brandId: 'vanilla', etaMinutes: 0 })).status).toBe(400)
    expect((await admin(api).post('/admin/giftcard/eta', { brandId: 'nope', etaMinutes: 5 })).body.code).toBe(Refusals.UNKNOWN_BRAND.code)
  })
})
