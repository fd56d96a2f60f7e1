// The sell page's choices and card values, as the page and its action both read them (no server code).
import type { Brand, CardTypeOffer, Rate } from '#contract/catalogue'
import { formatMoney, MAX_AMOUNT, parseAmount } from '#contract/money'
import { faceValueProblem, payoutFor, unknownCardTypeParams } from '#contract/rates'
import { formatRefusal, Refusals } from '#contract/refusals'
import { FILE_ID } from '#contract/upload-rules'
import { sellingMessages as M } from '~/utils/selling-messages'

export const HERE = '/order/sell'

export type Choice = {
  brand: Brand | null
  country: Brand['countries'][number] | null
  offer: CardTypeOffer | null
  /** Why a choice in the URL was not taken (an unknown brand, a country it is not bought from). */
  notice: string | null
}

/** The choices a URL or form names, each checked against the catalogue; the first offered stands in for a missing one. */
export function resolveChoice(
  brands: Brand[],
  asked: { brandId?: string | null; country?: string | null; cardType?: string | null },
): Choice {
  const none: Choice = { brand: null, country: null, offer: null, notice: null }
  if (!asked.brandId) return none
  const brand = brands.find((b) => b.brandId === asked.brandId?.trim().toLowerCase())
  if (!brand) return { ...none, notice: Refusals.UNKNOWN_BRAND.msg }
  let notice: string | null = null
  const wantedCountry = asked.country?.trim().toUpperCase()
  let country = brand.countries.find((c) => c.country === wantedCountry) ?? null
  if (!country) {
    if (wantedCountry) notice = formatRefusal(Refusals.UNKNOWN_COUNTRY, { brand: brand.name })
    country = brand.countries[0] ?? null
  }
  if (!country) return { ...none, brand, notice }
  let offer = country.cardTypes.find((t) => t.cardType === asked.cardType) ?? null
  if (!offer) {
    if (asked.cardType && !notice)
      notice = formatRefusal(Refusals.UNKNOWN_CARD_TYPE, unknownCardTypeParams(brand.name, country.countryName, asked.cardType))
    offer = country.cardTypes[0] ?? null
  }
  return { brand, country, offer, notice }
}

export function choiceQuery(c: { brandId: string; country?: string; cardType?: string }, faceValues: string[] = []): string {
  const query = new URLSearchParams({ brandId: c.brandId })
  if (c.country) query.set('country', c.country)
  if (c.cardType) query.set('cardType', c.cardType)
  for (const v of faceValues) query.append('faceValue', v)
  return `${HERE}?${query}`
}

/** A face value as it may travel in a URL: what a person types in an amount, nothing else (never a code). */
export const faceValueText = (v: unknown) => (typeof v === 'string' && /^[\d.,\s]{0,20}$/.test(v) ? v.trim() : '')

export const idsOf = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => FILE_ID.test(s))

/** A face value as typed ("100", "25.50"), in minor units of the card's currency. */
export function readFaceValue(text: string | undefined, currency: string): number | undefined {
  const minor = text === undefined || text.includes('-') ? undefined : parseAmount(text, currency)
  return minor !== undefined && minor > 0 && minor <= MAX_AMOUNT ? minor : undefined
}

/** What the page keeps of a card between posts: never its code or PIN. */
export type CardState = { faceValue: string; imageIds: string[] }

/** "US$", "£", "€": the currency's sign as formatMoney writes it. */
export const currencySymbol = (currency: string) => formatMoney(0, currency).replace(/[\d.,\s]/g, '')

/** A card's payout at the rate, or why its face value cannot be sold (the api's own words). */
export function payoutOf(text: string, offer: CardTypeOffer, currency: string, rate: Rate): { payout: number | null; problem?: string } {
  if (!text.trim()) return { payout: null }
  const minor = readFaceValue(text, currency)
  if (minor === undefined) return { payout: null, problem: M.faceValueInvalid }
  const problem = faceValueProblem(offer, minor, currency)
  if (problem) return { payout: null, problem: problem.msg }
  return { payout: payoutFor(minor, rate.rate, currency, rate.payoutCurrency) }
}
