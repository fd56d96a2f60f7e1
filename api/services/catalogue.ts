import {
  bestRateOf,
  COUNTRIES,
  type Brand,
  type CardType,
  type CardTypeOffer,
  faceValueProblem,
  formatRate,
  type GiftCard,
  type GiftCardCatalogue,
  type Logo,
  parseRate,
  payoutFor,
  type Quote,
  type Rate,
  rateChangePercent,
  unknownCardTypeParams,
} from '#contract/catalogue'
import type { RateChangeRequest } from '#contract/ops/review'
import { type Refusal, Refusals } from '#contract/refusals'
import type { Db } from '../db/connect'
import type { GiftCardBrandRow, GiftCardRateRow, GiftCardVariantRow, RateChangeRequestRow } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { refuse, refuseSaying } from '../lib/envelope'
import { newId } from '../lib/tokens'
import type { StaffCaller } from '../middleware/staff'
import { audit } from '../models/audit-log'
import * as catalogue from '../models/catalogue'
import { pendingCheckedRequests } from '../models/ops/checked-requests'
import { insertRateChangeRequest } from '../models/ops/rate-change-requests'
import { approveAsChecker, declineAsChecker } from './ops/maker-checker'

/** The catalogue (contract/catalogue.ts): the list, the rates board, quotes; operators' rates and ETAs. */

const DAY = 86_400_000

export const toLogo = (b: Pick<GiftCardBrandRow, 'initials' | 'background' | 'foreground'>): Logo => ({
  initials: b.initials,
  background: b.background,
  foreground: b.foreground,
})

export function toOffer(v: GiftCardVariantRow): CardTypeOffer {
  return {
    cardType: v.card_type as CardType,
    minFaceValue: Number(v.min_face_value),
    maxFaceValue: Number(v.max_face_value),
    denominations: v.denominations ? (JSON.parse(v.denominations) as number[]) : null,
  }
}

const countryName = (code: string) => COUNTRIES[code as keyof typeof COUNTRIES]?.name ?? code

type RateFilter = { brandId?: string; country?: string; cardType?: CardType }

/**
 * What the list and the board are made of, read once: brands, variants, and the rates in force
 * now and a day ago (one query per kind). Every call below builds its answer from one reading.
 */
type Reading = {
  brands: GiftCardBrandRow[]
  variants: GiftCardVariantRow[]
  current: Map<string, GiftCardRateRow>
  before: Map<string, GiftCardRateRow>
}

async function read(deps: ApiDeps, filter: RateFilter = {}): Promise<Reading> {
  const now = deps.now()
  const [brands, variants, [current, before]] = await Promise.all([
    catalogue.listBrands(deps.db),
    catalogue.listVariants(deps.db),
    catalogue.ratesAtEach(deps.db, [now, now - DAY], filter),
  ])
  return { brands, variants, current, before }
}

/**
 * The unfiltered reading an api keeps (decision 069): read at `at` when the catalogue's version
 * was `version`, true until `until` (the next moment a rate comes into force or the rate of a day
 * ago changes). A transaction is a handle of its own and never shares it.
 */
type Kept = { version: string; at: number; until: number; reading: Promise<Reading>; featured?: Promise<GiftCard[]> }
const kept = new WeakMap<Db, Kept>()

/**
 * The unfiltered reading for a call that read the catalogue's `version` (in one of its own
 * statements, before this): the kept one when that version is the one it was read at and the
 * clock is still within what it holds; otherwise read again, and kept.
 */
export function catalogueReading(deps: ApiDeps, version: number | string): Kept {
  const now = deps.now()
  const key = String(version)
  const was = kept.get(deps.db)
  if (was && was.version === key && was.at <= now && now < was.until) return was
  const entry: Kept = { version: key, at: now, until: now, reading: Promise.resolve(null as never) }
  entry.reading = (async () => {
    const [brands, variants, rates] = await Promise.all([
      catalogue.listBrands(deps.db),
      catalogue.listVariants(deps.db),
      catalogue.ratesNowAndDayAgo(deps.db, now, now - DAY),
    ])
    // Kept only once read, and only when the rates say how long they hold.
    if (rates.until !== null) entry.until = rates.until
    return { brands, variants, current: rates.current, before: rates.before }
  })()
  entry.reading.catch(() => kept.get(deps.db) === entry && kept.delete(deps.db))
  kept.set(deps.db, entry)
  return entry
}

/** The catalogue's reading for a call that has no other statement to carry its version. */
async function currentReading(deps: ApiDeps): Promise<Kept> {
  const [{ version }] = await catalogue.readCatalogueVersion(deps.db)
  return catalogueReading(deps, version!)
}

/** Every brand with what is bought of it; variants without a rate in force are not offered. */
export async function giftCardList(deps: ApiDeps): Promise<Brand[]> {
  const [brands, variants, rates] = await Promise.all([
    catalogue.listBrands(deps.db),
    catalogue.listVariants(deps.db),
    catalogue.ratesAt(deps.db, deps.now()),
  ])
  return listOf({ brands, variants, current: rates })
}

function listOf({ brands, variants, current: rates }: Pick<Reading, 'brands' | 'variants' | 'current'>): Brand[] {
  return brands.map((b) => {
    const countries = new Map<string, Brand['countries'][number]>()
    for (const v of variants) {
      if (v.brand_id !== b.id || !rates.has(catalogue.variantKey({ brandId: v.brand_id, country: v.country, cardType: v.card_type })))
        continue
      const entry = countries.get(v.country) ?? {
        country: v.country,
        countryName: countryName(v.country),
        currency: v.currency,
        cardTypes: [],
      }
      entry.cardTypes.push(toOffer(v))
      countries.set(v.country, entry)
    }
    return {
      brandId: b.id,
      name: b.name,
      logo: toLogo(b),
      featured: b.featured === 1,
      etaMinutes: b.eta_minutes,
      countries: [...countries.values()],
    }
  })
}

function toRate(
  deps: ApiDeps,
  b: GiftCardBrandRow,
  v: GiftCardVariantRow,
  current: GiftCardRateRow,
  before: GiftCardRateRow | undefined,
): Rate {
  return {
    brandId: b.id,
    brandName: b.name,
    country: v.country,
    cardType: v.card_type as CardType,
    currency: v.currency,
    payoutCurrency: deps.config.wallet.currency,
    rate: formatRate(Number(current.rate_micro)),
    setAt: Number(current.set_at),
    rate24hAgo: before ? formatRate(Number(before.rate_micro)) : null,
  }
}

/** The board: every brand × country × type with its rate now and 24 hours ago. */
export async function giftCardRates(deps: ApiDeps, filter: RateFilter): Promise<Rate[]> {
  return boardOf(deps, await read(deps, filter))
}

function boardOf(deps: ApiDeps, { brands, variants, current, before }: Reading, filter: RateFilter = {}): Rate[] {
  const out: Rate[] = []
  for (const b of brands) {
    if (filter.brandId && b.id !== filter.brandId) continue
    for (const v of variants) {
      if (v.brand_id !== b.id || (filter.country && v.country !== filter.country) || (filter.cardType && v.card_type !== filter.cardType))
        continue
      const key = catalogue.variantKey({ brandId: v.brand_id, country: v.country, cardType: v.card_type })
      const rate = current.get(key)
      if (rate) out.push(toRate(deps, b, v, rate, before.get(key)))
    }
  }
  return out
}

/**
 * The list and the board (filtered as /v1/giftcard/rates is) from one reading: the Trading Plaza
 * and the rate checker in one call.
 */
export async function giftCardCatalogue(deps: ApiDeps, filter: RateFilter): Promise<GiftCardCatalogue> {
  const reading = await (await currentReading(deps)).reading
  return { brands: listOf(reading), rates: boardOf(deps, reading, filter) }
}

/**
 * The featured brands (Home's cards), one line each with its best rate (bestRateOf); a brand with
 * no rate in force is left out. Every signed-in page's /v1/user/index carries this, so it is small
 * and made once a kept reading (the index hands over the reading of the version it read).
 */
export async function featuredGiftCards(deps: ApiDeps, kept?: Kept): Promise<GiftCard[]> {
  const entry = kept ?? (await currentReading(deps))
  entry.featured ??= entry.reading.then((reading) => featuredOf(deps, reading))
  return entry.featured
}

function featuredOf(deps: ApiDeps, reading: Reading): GiftCard[] {
  const rates = boardOf(deps, reading)
  const cards: GiftCard[] = []
  for (const b of reading.brands) {
    if (b.featured !== 1) continue
    const bestRate = bestRateOf(rates.filter((r) => r.brandId === b.id))
    if (bestRate) cards.push({ brandId: b.id, name: b.name, logo: toLogo(b), etaMinutes: b.eta_minutes, bestRate })
  }
  return cards
}

export type Offer = { brand: GiftCardBrandRow; variant: GiftCardVariantRow; offer: CardTypeOffer; rate: GiftCardRateRow }

/** Brand → country → type → the rate in force, or the refusal that names the first unknown one. */
export async function resolveOffer(db: Db, v: catalogue.VariantKey, now: number): Promise<Offer> {
  const brand = await catalogue.findBrand(db, v.brandId)
  if (!brand) throw refuse(Refusals.UNKNOWN_BRAND)
  const variants = await catalogue.variantsOf(db, brand.id)
  if (!variants.some((x) => x.country === v.country)) throw refuse(Refusals.UNKNOWN_COUNTRY, { brand: brand.name })
  const variant = variants.find((x) => x.country === v.country && x.card_type === v.cardType)
  const rate = variant && (await catalogue.rateAt(db, v, now))
  if (!variant || !rate) {
    throw refuse(Refusals.UNKNOWN_CARD_TYPE, unknownCardTypeParams(brand.name, countryName(v.country), v.cardType))
  }
  return { brand, variant, offer: toOffer(variant), rate }
}

/** Refuses the first face value the card cannot have, with the sentence that says why. */
export function checkFaceValues(offer: CardTypeOffer, currency: string, faceValues: number[]): void {
  faceValues.forEach((faceValue, i) => {
    const problem = faceValueProblem(offer, faceValue, currency)
    if (problem) throw refuseSaying(Refusals[problem.refusal], faceValues.length > 1 ? `Card ${i + 1}: ${problem.msg}` : problem.msg)
  })
}

export async function quote(deps: ApiDeps, q: { brandId: string; country: string; cardType: CardType; faceValue: number }): Promise<Quote> {
  const { variant, offer, rate } = await resolveOffer(deps.db, q, deps.now())
  checkFaceValues(offer, variant.currency, [q.faceValue])
  const payoutCurrency = deps.config.wallet.currency
  return {
    brandId: q.brandId,
    country: q.country,
    cardType: q.cardType,
    currency: variant.currency,
    faceValue: q.faceValue,
    rate: formatRate(Number(rate.rate_micro)),
    setAt: Number(rate.set_at),
    payoutCurrency,
    payout: payoutFor(q.faceValue, Number(rate.rate_micro), variant.currency, payoutCurrency),
  }
}

// ─── Operators ──────────────────────────────────────────────────────────────────────────────────

type RateBody = { brandId: string; country: string; cardType: CardType; rate: string; confirmed?: boolean }

/** The variant a rate is for, or the refusal that names the first unknown part. */
async function rateTarget(db: Db, body: catalogue.VariantKey) {
  const brand = await catalogue.findBrand(db, body.brandId)
  if (!brand) throw refuse(Refusals.UNKNOWN_BRAND)
  const variants = await catalogue.variantsOf(db, brand.id)
  if (!variants.some((x) => x.country === body.country)) throw refuse(Refusals.UNKNOWN_COUNTRY, { brand: brand.name })
  const variant = variants.find((x) => x.country === body.country && x.card_type === body.cardType)
  if (!variant) throw refuse(Refusals.UNKNOWN_CARD_TYPE, unknownCardTypeParams(brand.name, countryName(body.country), body.cardType))
  return { brand, variant }
}

/** |new − old| over old, against a whole percent, in integers: is the change more than `percent`? */
const beyond = (before: number, micro: number, percent: number) => Math.abs(micro - before) * 100 > percent * before

const signedPercent = (before: number, micro: number) => {
  const p = rateChangePercent(formatRate(micro), formatRate(before)) ?? 0
  return `${p > 0 ? '+' : ''}${p.toFixed(2)} %`
}

async function toRateChangeRequest(deps: ApiDeps, db: Db, r: RateChangeRequestRow): Promise<RateChangeRequest> {
  const { brand, variant } = await rateTarget(db, { brandId: r.brand_id, country: r.country, cardType: r.card_type })
  return {
    type: 'rate_change_request',
    id: r.id,
    brandId: r.brand_id,
    brandName: brand.name,
    country: r.country,
    cardType: r.card_type as CardType,
    currency: variant.currency,
    payoutCurrency: deps.config.wallet.currency,
    rate: formatRate(Number(r.rate_micro)),
    before: formatRate(Number(r.before_micro)),
    changePercent: rateChangePercent(formatRate(Number(r.rate_micro)), formatRate(Number(r.before_micro))) ?? 0,
    maker: r.maker,
    status: r.status as RateChangeRequest['status'],
    checker: r.checker,
    createdAt: Number(r.created_at),
  }
}

async function putRate(trx: Db, actor: string, key: catalogue.VariantKey, micro: number, now: number, extra: object = {}) {
  const before = await catalogue.rateAt(trx, key, now)
  await catalogue.insertRate(trx, {
    brand_id: key.brandId,
    country: key.country,
    card_type: key.cardType,
    rate_micro: micro,
    set_at: now,
    set_by: actor,
  })
  await audit(
    trx,
    {
      actor,
      action: 'rate.set',
      targetType: 'rate',
      targetId: catalogue.variantKey(key),
      before: before ? { rate: formatRate(Number(before.rate_micro)), setAt: Number(before.set_at) } : null,
      after: { rate: formatRate(micro), setAt: now, ...extra },
    },
    now,
  )
}

/**
 * A new rate. Further than RATE_CONFIRM_CHANGE percent from the rate in force it needs the
 * confirmation step (`confirmed`); beyond RATE_APPROVAL_CHANGE it waits for a second admin under
 * the adjustments' checker rules (decision 041): a typo never goes live on one keystroke.
 */
export async function setRate(deps: ApiDeps, actor: string, body: RateBody): Promise<Rate | RateChangeRequest> {
  const now = deps.now()
  const micro = parseRate(body.rate)!
  const { confirmPercent, approvalPercent } = deps.config.rateChecks
  const request = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    await rateTarget(trx, body)
    const current = await catalogue.rateAt(trx, body, now)
    const before = current ? Number(current.rate_micro) : undefined
    if (before !== undefined && beyond(before, micro, confirmPercent) && body.confirmed !== true)
      throw refuse(Refusals.RATE_CHANGE_UNCONFIRMED, { change: signedPercent(before, micro), before: formatRate(before) })
    if (before === undefined || !beyond(before, micro, approvalPercent)) {
      await putRate(trx, actor, body, micro, now)
      return undefined
    }
    const row: RateChangeRequestRow = {
      id: newId(),
      brand_id: body.brandId,
      country: body.country,
      card_type: body.cardType,
      rate_micro: micro,
      before_micro: before,
      maker: actor,
      status: 'pending',
      checker: null,
      created_at: now,
      decided_at: null,
    }
    await insertRateChangeRequest(trx, row)
    const asked = await toRateChangeRequest(deps, trx, row)
    await audit(
      trx,
      { actor, action: 'rate.change.request', targetType: 'rate', targetId: catalogue.variantKey(body), before: null, after: asked },
      now,
    )
    return asked
  })
  if (request) return request
  const [rate] = await giftCardRates(deps, body)
  return rate
}

export async function pendingRateChanges(deps: ApiDeps): Promise<RateChangeRequest[]> {
  const rows = await pendingCheckedRequests(deps.db, 'rate_change_requests')
  return Promise.all(rows.map((r) => toRateChangeRequest(deps, deps.db, r)))
}

type Outcome = { refusal: Refusal } | { ok: catalogue.VariantKey }

/** A second admin approves a rate change: it goes live once, under the same checker rules as adjustments. */
export async function approveRateChange(deps: ApiDeps, caller: StaffCaller, id: string): Promise<Rate> {
  const now = deps.now()
  const outcome: Outcome = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const checked = await approveAsChecker(trx, deps.dbKind, caller, 'rateChange', id, now)
    if ('refusal' in checked) return checked
    const req = checked.row
    const key = { brandId: req.brand_id, country: req.country, cardType: req.card_type }
    if (!checked.again) await putRate(trx, req.maker, key, Number(req.rate_micro), now, { maker: req.maker, checker: caller.actor })
    return { ok: key }
  })
  if ('refusal' in outcome) throw refuse(outcome.refusal)
  const [rate] = await giftCardRates(deps, { ...outcome.ok, cardType: outcome.ok.cardType as CardType })
  return rate
}

export async function declineRateChange(deps: ApiDeps, actor: string, id: string): Promise<RateChangeRequest> {
  const now = deps.now()
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const checked = await declineAsChecker(trx, deps.dbKind, actor, 'rateChange', id, now)
    if ('refusal' in checked) throw refuse(checked.refusal)
    const req = checked.row
    const after = await toRateChangeRequest(deps, trx, { ...req, status: 'declined', checker: actor, decided_at: now })
    await audit(trx, { actor, action: 'rate.change.decline', targetType: 'rate_change', targetId: req.id, before: null, after }, now)
    return after
  })
}

export async function setEta(deps: ApiDeps, actor: string, body: { brandId: string; etaMinutes: number }) {
  const now = deps.now()
  await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const brand = await catalogue.findBrand(trx, body.brandId)
    if (!brand) throw refuse(Refusals.UNKNOWN_BRAND)
    await catalogue.setEta(trx, body.brandId, body.etaMinutes, now)
    await audit(
      trx,
      {
        actor,
        action: 'eta.set',
        targetType: 'brand',
        targetId: brand.id,
        before: { etaMinutes: brand.eta_minutes },
        after: { etaMinutes: body.etaMinutes },
      },
      now,
    )
  })
  return { brandId: body.brandId, etaMinutes: body.etaMinutes }
}

export async function rateHistory(deps: ApiDeps, q: catalogue.VariantKey) {
  await resolveOffer(deps.db, q, Number.MAX_SAFE_INTEGER)
  const rows = await catalogue.rateHistory(deps.db, q)
  return rows.map((r) => ({ rate: formatRate(Number(r.rate_micro)), setAt: Number(r.set_at), setBy: r.set_by }))
}
