import { z } from 'zod'
import { get } from './endpoint'
import { currencyCode, formatMoney, MAX_AMOUNT, minorDigits, minorUnits } from './money'
import { formatRefusal, Refusals } from './refusals'

/**
 * The gift-card catalogue (DESIGN §3 "Catalogue"): brands, the countries each is bought from (with
 * the card's currency), the card types of each country (a physical card, photographed, or an
 * e-code, typed), face-value limits or fixed denominations, the brand's review ETA, and a rate per
 * brand × country × type with its history.
 *
 * Face values are integer minor units of the CARD's currency (10000 is US$100.00), like every
 * amount (contract/money.ts). Payouts are minor units of the payout currency (CURRENCY, NGN).
 */

export const CardType = { PHYSICAL: 'physical', ECODE: 'ecode' } as const
export type CardType = (typeof CardType)[keyof typeof CardType]
export const cardTypes = Object.values(CardType) as [CardType, ...CardType[]]

/** The countries a card can come from, with the card's currency there. */
export const COUNTRIES = {
  US: { name: 'United States', currency: 'USD' },
  GB: { name: 'United Kingdom', currency: 'GBP' },
  CA: { name: 'Canada', currency: 'CAD' },
  AU: { name: 'Australia', currency: 'AUD' },
  DE: { name: 'Germany', currency: 'EUR' },
} as const

// ─── Rates ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A rate is a decimal string: how many payout-currency units one card-currency unit is worth
 * ("1450.5" is ₦1,450.50 per US$1.00), at most 6 decimals. Inside, it is an integer count of
 * millionths ("micro-units": 1450.5 → 1_450_500_000), so no float ever touches money.
 */
export const RATE_DECIMALS = 6
const RATE_SCALE = 1_000_000
/** Far above any real rate; keeps micro-units and payouts within safe integers. */
export const MAX_RATE_MICRO = 10_000_000 * RATE_SCALE

const RATE_PATTERN = /^(\d{1,8})(?:\.(\d{1,6}))?$/

/** "1450.50" → 1_450_500_000; undefined when it is not a plain positive decimal with ≤ 6 decimals. */
export function parseRate(text: string): number | undefined {
  const m = RATE_PATTERN.exec(text.trim())
  if (!m) return undefined
  const micro = Number(m[1]) * RATE_SCALE + Number((m[2] ?? '').padEnd(RATE_DECIMALS, '0'))
  return micro > 0 && micro <= MAX_RATE_MICRO ? micro : undefined
}

/** 1_450_500_000 → "1450.50": at least 2 decimals, at most 6, no trailing zeros beyond 2. */
export function formatRate(micro: number): string {
  let fraction = String(micro % RATE_SCALE)
    .padStart(RATE_DECIMALS, '0')
    .replace(/0+$/, '')
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0')
  return `${Math.floor(micro / RATE_SCALE)}.${fraction}`
}

/** A rate as it travels: a decimal string the api and the web both read with parseRate. */
export const rateField = z
  .string({ required_error: 'Rate is required', invalid_type_error: 'Rate must be a decimal number as text' })
  .max(20, 'Rate is too long')
  .refine((s) => parseRate(s) !== undefined, 'Rate must be a positive decimal number with at most 6 decimals, like 1450.50')

/**
 * THE payout rule, the one function both sides use (the web shows the same number the api
 * stores): payout = face value × rate, rounded DOWN to the payout currency's minor unit, in
 * integer arithmetic (BigInt):
 *
 *   payoutMinor = ⌊ faceValueMinor × rateMicro × 10^payoutDigits ÷ (10^cardDigits × 10^6) ⌋
 *
 * e.g. US$100.00 (10000 cents) at "1450.555555" (₦ per $1) is ⌊ 14 505 555.55 ⌋ = 14 505 555 kobo,
 * ₦145,055.55: the half kobo stays with us, never a kobo more than the rate gives.
 * An order of several cards is the sum of each card's payout, each rounded down on its own.
 */
export function payoutFor(faceValue: number, rate: string | number, cardCurrency: string, payoutCurrency: string): number {
  const micro = typeof rate === 'number' ? rate : parseRate(rate)
  if (micro === undefined || !Number.isSafeInteger(micro) || micro <= 0) throw new RangeError('payoutFor: not a rate')
  if (!Number.isSafeInteger(faceValue) || faceValue < 0) throw new RangeError('payoutFor: face value is a whole number of minor units')
  const ten = BigInt(10)
  const numerator = BigInt(faceValue) * BigInt(micro) * ten ** BigInt(minorDigits(payoutCurrency))
  const denominator = ten ** BigInt(minorDigits(cardCurrency)) * BigInt(RATE_SCALE)
  const payout = numerator / denominator // BigInt division truncates: for non-negatives, that is floor
  if (payout > BigInt(MAX_AMOUNT)) throw new RangeError('payoutFor: payout is too large')
  return Number(payout)
}

/** The change of a rate against the rate 24 hours ago, in percent with 2 decimals (−1.25); null without one. */
export function rateChangePercent(rate: string, before: string | null): number | null {
  const now = parseRate(rate)
  const then = before === null ? undefined : parseRate(before)
  if (now === undefined || then === undefined) return null
  // Basis points, rounded half away from zero, in integers; then shown as a percentage.
  const diff = (now - then) * 10_000
  const bp = Math.sign(diff) * Math.round(Math.abs(diff) / then)
  return bp / 100
}

// ─── Face values ────────────────────────────────────────────────────────────────────────────────

/** What can be sold of one brand in one country as one card type. */
export const cardTypeOfferSchema = z.object({
  cardType: z.enum(cardTypes),
  /** Smallest and largest face value, minor units of the card currency. */
  minFaceValue: minorUnits,
  maxFaceValue: minorUnits,
  /** Fixed values the card comes in (minor units), or null when any value within the limits goes. */
  denominations: z.array(minorUnits).nullable(),
})
export type CardTypeOffer = z.infer<typeof cardTypeOfferSchema>

/**
 * Why a face value cannot be sold, as the sentence the person reads (the same on both sides), or
 * undefined when it can.
 */
/** What UNKNOWN_CARD_TYPE names: the brand, the country and the type of card not bought there. */
export const unknownCardTypeParams = (brand: string, country: string, cardType: string) => ({
  brand,
  country,
  type: cardType === 'ecode' ? 'e-codes' : 'physical cards',
})

/** What FACE_VALUE_OUT_OF_RANGE names: the card's smallest and largest face value. */
export const faceValueLimits = (offer: Pick<CardTypeOffer, 'minFaceValue' | 'maxFaceValue'>, currency: string) => ({
  min: formatMoney(offer.minFaceValue, currency),
  max: formatMoney(offer.maxFaceValue, currency),
})

export function faceValueProblem(
  offer: Pick<CardTypeOffer, 'minFaceValue' | 'maxFaceValue' | 'denominations'>,
  faceValue: number,
  currency: string,
) {
  if (offer.denominations && offer.denominations.length > 0) {
    if (offer.denominations.includes(faceValue)) return undefined
    return {
      refusal: 'FACE_VALUE_NOT_LISTED' as const,
      msg: formatRefusal(Refusals.FACE_VALUE_NOT_LISTED, { values: offer.denominations.map((d) => formatMoney(d, currency)).join(', ') }),
    }
  }
  if (faceValue < offer.minFaceValue || faceValue > offer.maxFaceValue) {
    return {
      refusal: 'FACE_VALUE_OUT_OF_RANGE' as const,
      msg: formatRefusal(Refusals.FACE_VALUE_OUT_OF_RANGE, faceValueLimits(offer, currency)),
    }
  }
  return undefined
}

// ─── The list and the board ─────────────────────────────────────────────────────────────────────

const brandIdField = z
  .string({ required_error: 'Choose a gift card', invalid_type_error: 'Choose a gift card' })
  .trim()
  .min(1, 'Choose a gift card')
  .max(40, 'Choose a gift card')
const countryField = z
  .string({ required_error: 'Choose the country of the card', invalid_type_error: 'Choose the country of the card' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Choose the country of the card')
const cardTypeField = z.enum(cardTypes, {
  errorMap: () => ({ message: 'Choose the card type: physical or ecode' }),
})
export const catalogueFields = { brandId: brandIdField, country: countryField, cardType: cardTypeField }

/** A logo tile we draw ourselves: the brand's initials on its colour (no third-party logo files). */
export const logoSchema = z.object({ initials: z.string(), background: z.string(), foreground: z.string() })
export type Logo = z.infer<typeof logoSchema>

export const brandSchema = z.object({
  /** A stable slug: "apple", "google-play". */
  brandId: z.string(),
  name: z.string(),
  logo: logoSchema,
  /** Shown on Home and at the top of the sell screen. */
  featured: z.boolean(),
  /** How long a review usually takes for this brand, in minutes (set by operators). */
  etaMinutes: z.number().int().positive(),
  countries: z.array(
    z.object({
      country: z.string(),
      countryName: z.string(),
      /** The card's currency in that country. */
      currency: currencyCode,
      cardTypes: z.array(cardTypeOfferSchema),
    }),
  ),
})
export type Brand = z.infer<typeof brandSchema>

export const rateSchema = z.object({
  brandId: z.string(),
  brandName: z.string(),
  country: z.string(),
  cardType: z.enum(cardTypes),
  /** The card's currency. */
  currency: currencyCode,
  /** The payout currency (CURRENCY). */
  payoutCurrency: currencyCode,
  /** Payout-currency units per card-currency unit, decimal string (see parseRate). */
  rate: z.string(),
  /** When the current rate was set (epoch ms). */
  setAt: z.number().int(),
  /** The rate that held 24 hours ago, or null when the card was not bought then. */
  rate24hAgo: z.string().nullable(),
})
export type Rate = z.infer<typeof rateSchema>

export const ratesQuery = z.object({
  brandId: brandIdField.optional(),
  country: countryField.optional(),
  cardType: cardTypeField.optional(),
})

/** "Check rate" without JavaScript: the payout of one face value, checked as an order would be. */
export const quoteQuery = z.object({
  ...catalogueFields,
  faceValue: z.coerce
    .number({ invalid_type_error: 'Face value must be a whole number of minor units' })
    .int('Face value must be a whole number of minor units')
    .positive('Enter the face value of the card')
    .max(MAX_AMOUNT, 'Face value is too large'),
})
export const quoteData = z.object({
  brandId: z.string(),
  country: z.string(),
  cardType: z.enum(cardTypes),
  currency: currencyCode,
  faceValue: minorUnits,
  rate: z.string(),
  setAt: z.number().int(),
  payoutCurrency: currencyCode,
  payout: minorUnits,
})
export type Quote = z.infer<typeof quoteData>

/**
 * A featured gift card (Home's list; `giftCardList` of /v1/user/index, SPEC §7): the brand's tile,
 * its review ETA and its best rate — in dollars when it is bought as dollar cards (rates in other
 * currencies do not compare), else in the currency of its first rate. The whole board is
 * /v1/giftcard/rates; Home carries one line a brand so every page's user index stays small.
 */
export const giftCardSchema = brandSchema.pick({ brandId: true, name: true, logo: true, etaMinutes: true }).extend({ bestRate: rateSchema })
export type GiftCard = z.infer<typeof giftCardSchema>

/** The rate a featured card advertises ("Up to ₦1,180.00 per US$1"); undefined without rates. */
export function bestRateOf<R extends Pick<Rate, 'rate' | 'currency'>>(rates: R[]): R | undefined {
  const currency = rates.some((r) => r.currency === 'USD') ? 'USD' : rates[0]?.currency
  let best: R | undefined
  for (const r of rates) {
    if (r.currency !== currency) continue
    if (!best || (parseRate(r.rate) ?? 0) > (parseRate(best.rate) ?? 0)) best = r
  }
  return best
}

export const catalogueApi = {
  list: get('/v1/giftcard/list', 'public', z.object({}), z.array(brandSchema)),
  /** Home's featured cards for a visitor: the same list a signed-in person's user index carries. */
  featured: get('/v1/giftcard/featured', 'public', z.object({}), z.array(giftCardSchema)),
  rates: get('/v1/giftcard/rates', 'public', ratesQuery, z.array(rateSchema)),
  quote: get('/v1/giftcard/quote', 'public', quoteQuery, quoteData),
}
