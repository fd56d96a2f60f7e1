import type { Kysely } from 'kysely'

/**
 * The catalogue a new installation starts with (migration 0003_selling calls seedCatalogue once).
 * Operators change rates and ETAs later (`npm run ops -- rate|eta`); this file is never read again
 * after the first migration, so editing it changes nothing for a running installation.
 *
 * Rates are naira per unit of the card's currency, near Nigeria's gift-card market when it was written: dollar
 * cards of the most liquid brands (Steam, Apple, Razer) fetch the most, e-codes a little less than
 * physical cards, and other currencies by their value against the dollar.
 */

type Seed = {
  id: string
  name: string
  initials: string
  background: string
  foreground: string
  featured?: boolean
  etaMinutes: number
  /** ₦ per US$1 for a physical US card (or e-code, when the brand has no physical US card). */
  usdRate: number
  variants: {
    country: 'US' | 'GB' | 'CA' | 'AU' | 'DE'
    types: ('physical' | 'ecode')[]
    min?: number
    max?: number
    denominations?: number[]
  }[]
}

const CURRENCY = { US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', DE: 'EUR' } as const
/** What one unit of the card's currency is worth against US$1 on this market. */
const VS_USD = { US: 1, GB: 1.27, CA: 0.71, AU: 0.64, DE: 1.07 } as const
const ECODE_DISCOUNT = 0.95

export const CATALOGUE: Seed[] = [
  {
    id: 'apple',
    name: 'Apple',
    initials: 'AP',
    background: '#111111',
    foreground: '#FFFFFF',
    featured: true,
    etaMinutes: 15,
    usdRate: 1180,
    variants: [
      { country: 'US', types: ['physical', 'ecode'], min: 10, max: 500 },
      { country: 'GB', types: ['physical', 'ecode'], min: 10, max: 500 },
      { country: 'CA', types: ['physical'], min: 25, max: 500 },
      { country: 'AU', types: ['physical'], min: 20, max: 500 },
      { country: 'DE', types: ['ecode'], min: 15, max: 250 },
    ],
  },
  {
    id: 'steam',
    name: 'Steam',
    initials: 'ST',
    background: '#1B2838',
    foreground: '#FFFFFF',
    featured: true,
    etaMinutes: 10,
    usdRate: 1240,
    variants: [
      { country: 'US', types: ['physical', 'ecode'], denominations: [5, 10, 20, 25, 50, 75, 100] },
      { country: 'GB', types: ['physical', 'ecode'], denominations: [5, 10, 20, 25, 50] },
      { country: 'CA', types: ['physical'], denominations: [20, 50, 75, 100] },
      { country: 'AU', types: ['physical'], denominations: [20, 30, 50, 100] },
      { country: 'DE', types: ['ecode'], denominations: [5, 10, 20, 25, 50, 100] },
    ],
  },
  {
    id: 'amazon',
    name: 'Amazon',
    initials: 'AM',
    background: '#FF9900',
    foreground: '#111111',
    featured: true,
    etaMinutes: 20,
    usdRate: 1050,
    variants: [
      { country: 'US', types: ['physical'], min: 25, max: 500 },
      { country: 'US', types: ['ecode'], min: 5, max: 2000 },
      { country: 'GB', types: ['ecode'], min: 10, max: 500 },
      { country: 'CA', types: ['physical'], min: 25, max: 500 },
      { country: 'DE', types: ['ecode'], min: 10, max: 500 },
    ],
  },
  {
    id: 'google-play',
    name: 'Google Play',
    initials: 'GP',
    background: '#01875F',
    foreground: '#FFFFFF',
    featured: true,
    etaMinutes: 15,
    usdRate: 820,
    variants: [
      { country: 'US', types: ['physical'], denominations: [10, 15, 25, 50, 100] },
      { country: 'US', types: ['ecode'], min: 5, max: 500 },
      { country: 'GB', types: ['ecode'], denominations: [10, 15, 25, 50] },
    ],
  },
  {
    id: 'razer-gold',
    name: 'Razer Gold',
    initials: 'RG',
    background: '#44D62C',
    foreground: '#111111',
    featured: true,
    etaMinutes: 10,
    usdRate: 1200,
    variants: [
      { country: 'US', types: ['physical'], denominations: [10, 20, 50, 100] },
      { country: 'US', types: ['ecode'], denominations: [5, 10, 20, 50, 100, 200] },
    ],
  },
  {
    id: 'sephora',
    name: 'Sephora',
    initials: 'SE',
    background: '#000000',
    foreground: '#FFFFFF',
    etaMinutes: 30,
    usdRate: 990,
    variants: [
      { country: 'US', types: ['physical'], min: 25, max: 1000 },
      { country: 'US', types: ['ecode'], min: 10, max: 500 },
      { country: 'CA', types: ['physical'], min: 25, max: 500 },
    ],
  },
  {
    id: 'nordstrom',
    name: 'Nordstrom',
    initials: 'NO',
    background: '#004170',
    foreground: '#FFFFFF',
    etaMinutes: 30,
    usdRate: 980,
    variants: [
      { country: 'US', types: ['physical'], min: 25, max: 1000 },
      { country: 'US', types: ['ecode'], min: 25, max: 500 },
    ],
  },
  {
    id: 'vanilla',
    name: 'Vanilla',
    initials: 'VA',
    background: '#F6E7C1',
    foreground: '#3D2B1F',
    etaMinutes: 45,
    usdRate: 930,
    variants: [{ country: 'US', types: ['physical', 'ecode'], min: 20, max: 500 }],
  },
  {
    id: 'ebay',
    name: 'eBay',
    initials: 'EB',
    background: '#E53238',
    foreground: '#FFFFFF',
    featured: true,
    etaMinutes: 25,
    usdRate: 1100,
    variants: [
      { country: 'US', types: ['physical'], denominations: [25, 50, 100, 200] },
      { country: 'US', types: ['ecode'], min: 25, max: 500 },
      { country: 'GB', types: ['ecode'], min: 10, max: 200 },
    ],
  },
  {
    id: 'walmart',
    name: 'Walmart',
    initials: 'WM',
    background: '#0071CE',
    foreground: '#FFC220',
    etaMinutes: 25,
    usdRate: 1030,
    variants: [{ country: 'US', types: ['physical', 'ecode'], min: 10, max: 500 }],
  },
  {
    id: 'xbox',
    name: 'Xbox',
    initials: 'XB',
    background: '#107C10',
    foreground: '#FFFFFF',
    etaMinutes: 15,
    usdRate: 1060,
    variants: [
      { country: 'US', types: ['physical', 'ecode'], denominations: [10, 15, 25, 50, 60, 100] },
      { country: 'GB', types: ['ecode'], denominations: [10, 15, 20, 25, 50] },
    ],
  },
  {
    id: 'playstation',
    name: 'PlayStation',
    initials: 'PS',
    background: '#003791',
    foreground: '#FFFFFF',
    featured: true,
    etaMinutes: 15,
    usdRate: 1120,
    variants: [
      { country: 'US', types: ['physical', 'ecode'], denominations: [10, 25, 50, 60, 75, 100] },
      { country: 'GB', types: ['ecode'], denominations: [10, 20, 25, 50] },
      { country: 'DE', types: ['ecode'], denominations: [10, 20, 25, 50] },
    ],
  },
  {
    id: 'target',
    name: 'Target',
    initials: 'TA',
    background: '#CC0000',
    foreground: '#FFFFFF',
    etaMinutes: 30,
    usdRate: 960,
    variants: [{ country: 'US', types: ['physical', 'ecode'], min: 10, max: 500 }],
  },
]

const HOUR = 3_600_000
/** Moves of the rate between 25 hours ago and now, in percent, cycled over the rows: a board that moves. */
const MOVES_24H = [2.5, -1.5, 0, 1, -3, 0.5, 4, -0.5]

/** ₦ rounded to the half naira, as millionths. */
const toMicro = (naira: number) => Math.round(naira * 2) * 500_000

export async function seedCatalogue(db: Kysely<any>, now: number): Promise<void> {
  let row = 0
  for (const [sort, b] of CATALOGUE.entries()) {
    await db
      .insertInto('gift_card_brands')
      .values({
        id: b.id,
        name: b.name,
        initials: b.initials,
        background: b.background,
        foreground: b.foreground,
        featured: b.featured ? 1 : 0,
        eta_minutes: b.etaMinutes,
        sort,
        updated_at: now,
      })
      .execute()
    for (const v of b.variants) {
      for (const type of v.types) {
        const minor = (major: number) => major * 100
        await db
          .insertInto('gift_card_variants')
          .values({
            brand_id: b.id,
            country: v.country,
            currency: CURRENCY[v.country],
            card_type: type,
            min_face_value: minor(v.denominations ? Math.min(...v.denominations) : v.min!),
            max_face_value: minor(v.denominations ? Math.max(...v.denominations) : v.max!),
            denominations: v.denominations ? JSON.stringify(v.denominations.map(minor)) : null,
          })
          .execute()
        const current = b.usdRate * VS_USD[v.country] * (type === 'ecode' ? ECODE_DISCOUNT : 1)
        const move = MOVES_24H[row++ % MOVES_24H.length]
        const history = [
          { at: now - 8 * 24 * HOUR, naira: current * 0.97 },
          { at: now - 25 * HOUR, naira: current / (1 + move / 100) },
          { at: now - 3 * HOUR, naira: current },
        ]
        for (const h of history) {
          await db
            .insertInto('gift_card_rates')
            .values({ brand_id: b.id, country: v.country, card_type: type, rate_micro: toMicro(h.naira), set_at: h.at, set_by: 'seed' })
            .execute()
        }
      }
    }
  }
}
