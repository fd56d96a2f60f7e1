import { z } from 'zod'
import { get } from './endpoint'
import { MAX_AMOUNT } from './money'
import { currencyCode, minorUnits } from './money-fields'
import { cardTypes, parseRate } from './rates'

/**
 * The gift-card catalogue (DESIGN §3 "Catalogue"): brands, the countries each is bought from (with
 * the card's currency), the card types of each country (a physical card, photographed, or an
 * e-code, typed), face-value limits or fixed denominations, the brand's review ETA, and a rate per
 * brand × country × type with its history.
 *
 * Face values are integer minor units of the CARD's currency (10000 is US$100.00), like every
 * amount (contract/money.ts). Payouts are minor units of the payout currency (CURRENCY, NGN).
 * The arithmetic both sides share (rates, the payout rule, face values) is in rates.ts.
 */

export {
  CardType,
  cardTypes,
  COUNTRIES,
  faceValueLimits,
  faceValueProblem,
  formatRate,
  MAX_RATE_MICRO,
  parseRate,
  payoutFor,
  RATE_DECIMALS,
  rateChangePercent,
  unknownCardTypeParams,
} from './rates'

/** A rate as it travels: a decimal string the api and the web both read with parseRate. */
export const rateField = z
  .string({ required_error: 'Rate is required', invalid_type_error: 'Rate must be a decimal number as text' })
  .max(20, 'Rate is too long')
  .refine((s) => parseRate(s) !== undefined, 'Rate must be a positive decimal number with at most 6 decimals, like 1450.50')

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

/**
 * The list and the board in one answer (the Trading Plaza, the rate checker): `brands` as
 * /v1/giftcard/list answers, `rates` as /v1/giftcard/rates answers for the same query.
 */
export const giftCardCatalogueData = z.object({ brands: z.array(brandSchema), rates: z.array(rateSchema) })
export type GiftCardCatalogue = z.infer<typeof giftCardCatalogueData>

export const catalogueApi = {
  list: get('/v1/giftcard/list', 'public', z.object({}), z.array(brandSchema)),
  /** Home's featured cards for a visitor: the same list a signed-in person's user index carries. */
  featured: get('/v1/giftcard/featured', 'public', z.object({}), z.array(giftCardSchema)),
  rates: get('/v1/giftcard/rates', 'public', ratesQuery, z.array(rateSchema)),
  catalogue: get('/v1/giftcard/catalogue', 'public', ratesQuery, giftCardCatalogueData),
  quote: get('/v1/giftcard/quote', 'public', quoteQuery, quoteData),
}
