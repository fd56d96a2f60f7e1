import { faceValueRefusals } from './face-value-refusals'
import { formatMoney, MAX_AMOUNT, minorDigits } from './money'
import { formatRefusal } from './refusal-format'

/**
 * The catalogue's arithmetic, the same on both sides (contract/catalogue.ts holds its records):
 * card types, countries, rates, the payout rule and the face-value rule. No schemas here, so a
 * screen that shows a rate does not load the validation library.
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

/** What UNKNOWN_CARD_TYPE names: the brand, the country and the type of card not bought there. */
export const unknownCardTypeParams = (brand: string, country: string, cardType: string) => ({
  brand,
  country,
  type: cardType === 'ecode' ? 'e-codes' : 'physical cards',
})

type FaceValueRule = { minFaceValue: number; maxFaceValue: number; denominations: number[] | null }

/** What FACE_VALUE_OUT_OF_RANGE names: the card's smallest and largest face value. */
export const faceValueLimits = (offer: Pick<FaceValueRule, 'minFaceValue' | 'maxFaceValue'>, currency: string) => ({
  min: formatMoney(offer.minFaceValue, currency),
  max: formatMoney(offer.maxFaceValue, currency),
})

/**
 * Why a face value cannot be sold, as the sentence the person reads (the same on both sides), or
 * undefined when it can.
 */
export function faceValueProblem(offer: FaceValueRule, faceValue: number, currency: string) {
  if (offer.denominations && offer.denominations.length > 0) {
    if (offer.denominations.includes(faceValue)) return undefined
    return {
      refusal: 'FACE_VALUE_NOT_LISTED' as const,
      msg: formatRefusal(faceValueRefusals.FACE_VALUE_NOT_LISTED, {
        values: offer.denominations.map((d) => formatMoney(d, currency)).join(', '),
      }),
    }
  }
  if (faceValue < offer.minFaceValue || faceValue > offer.maxFaceValue) {
    return {
      refusal: 'FACE_VALUE_OUT_OF_RANGE' as const,
      msg: formatRefusal(faceValueRefusals.FACE_VALUE_OUT_OF_RANGE, faceValueLimits(offer, currency)),
    }
  }
  return undefined
}
