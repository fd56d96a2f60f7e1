import { type ExpressionBuilder, sql } from 'kysely'
import type { Db } from '../db/connect'
import { fixedQuery, preparedQuery } from '../db/fixed-query'
import type { Database, GiftCardBrandRow, GiftCardRateRow, GiftCardVariantRow } from '../db/schema'

/** The catalogue's SQL: brands, what is bought (variants), and the rate history. */

export type VariantKey = { brandId: string; country: string; cardType: string }

export const listBrands: (db: Db) => Promise<GiftCardBrandRow[]> = fixedQuery((db) =>
  db.selectFrom('gift_card_brands').selectAll().orderBy('sort').orderBy('id'),
)

export const findBrand = (db: Db, id: string): Promise<GiftCardBrandRow | undefined> =>
  db.selectFrom('gift_card_brands').selectAll().where('id', '=', id).executeTakeFirst()

export const findBrands = (db: Db, ids: string[]): Promise<GiftCardBrandRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('gift_card_brands')
        .selectAll()
        .where('id', 'in', [...new Set(ids)])
        .execute()

export const listVariants: (db: Db) => Promise<GiftCardVariantRow[]> = fixedQuery((db) =>
  db.selectFrom('gift_card_variants').selectAll().orderBy('brand_id').orderBy('country').orderBy('card_type'),
)

export const variantsOf = (db: Db, brandId: string): Promise<GiftCardVariantRow[]> =>
  db.selectFrom('gift_card_variants').selectAll().where('brand_id', '=', brandId).execute()

/** The rate in force at `at`: the newest set no later than then. */
export const rateAt = (db: Db, v: VariantKey, at: number): Promise<GiftCardRateRow | undefined> =>
  db
    .selectFrom('gift_card_rates')
    .selectAll()
    .where('brand_id', '=', v.brandId)
    .where('country', '=', v.country)
    .where('card_type', '=', v.cardType)
    .where('set_at', '<=', at)
    .orderBy('set_at', 'desc')
    .limit(1)
    .executeTakeFirst()

/** For every variant, the rate in force at `at` (variants without one are left out). */
export async function ratesAt(db: Db, at: number, filter: Partial<VariantKey> = {}): Promise<Map<string, GiftCardRateRow>> {
  return (await ratesAtEach(db, [at], filter))[0]
}

/** ratesAt for each of `moments` (now and a day ago), in one query: one map per moment, in order. */
export async function ratesAtEach(db: Db, moments: number[], filter: Partial<VariantKey> = {}): Promise<Map<string, GiftCardRateRow>[]> {
  const rows = await ratesQuery(db, moments, filter).execute()
  const maps = moments.map(() => new Map<string, GiftCardRateRow>())
  for (const { moment, ...row } of rows) {
    maps[Number(moment)].set(variantKey({ brandId: row.brand_id, country: row.country, cardType: row.card_type }), row)
  }
  return maps
}

/**
 * Every variant's rate in force now and a day ago, and until when both stay so: the first rate set
 * after `now` (one set ahead comes into force) and the first set after `dayAgo` (a day after it,
 * the rate of a day ago is another). `until` is null when no rate says (no rate at all).
 */
export async function ratesNowAndDayAgo(
  db: Db,
  now: number,
  dayAgo: number,
): Promise<{ current: Map<string, GiftCardRateRow>; before: Map<string, GiftCardRateRow>; until: number | null }> {
  const rows = await ratesAtTwo(db, now, dayAgo)
  const maps = [new Map<string, GiftCardRateRow>(), new Map<string, GiftCardRateRow>()]
  let until: number | null = null
  for (const { moment, next_set, next_after_day_ago, ...row } of rows) {
    maps[Number(moment)].set(variantKey({ brandId: row.brand_id, country: row.country, cardType: row.card_type }), row)
    until = Math.min(
      next_set == null ? Infinity : Number(next_set),
      next_after_day_ago == null ? Infinity : Number(next_after_day_ago) + (now - dayAgo),
    )
  }
  return { current: maps[0], before: maps[1], until }
}

/**
 * When the rate of row `r`'s variant in force at `at` was set (the latest set at or before it):
 * a rate row is the one in force then when its `set_at` is this.
 */
const lastSetAt = (eb: ExpressionBuilder<Database & { r: Database['gift_card_rates'] }, 'r'>, at: number) =>
  eb
    .selectFrom('gift_card_rates as r2')
    .select((e) => e.fn.max('r2.set_at').as('m'))
    .whereRef('r2.brand_id', '=', 'r.brand_id')
    .whereRef('r2.country', '=', 'r.country')
    .whereRef('r2.card_type', '=', 'r.card_type')
    .where('r2.set_at', '<=', at)

function ratesQuery(db: Db, moments: number[], filter: Partial<VariantKey>) {
  const inForce = (i: number) => {
    let q = db
      .selectFrom('gift_card_rates as r')
      .selectAll('r')
      .select(sql.lit(i).as('moment'))
      .where('r.set_at', '=', (eb) => lastSetAt(eb, moments[i]))
    if (filter.brandId) q = q.where('r.brand_id', '=', filter.brandId)
    if (filter.country) q = q.where('r.country', '=', filter.country)
    if (filter.cardType) q = q.where('r.card_type', '=', filter.cardType)
    return q
  }
  let query = inForce(0)
  for (let i = 1; i < moments.length; i++) query = query.unionAll(inForce(i))
  return query
}

// The two moments' rates with, on every row, the first rate set after each moment: uncorrelated,
// so each is computed once a statement, and the reading knows when it stops being true.
const ratesAtTwo = preparedQuery(2, (db, now: number, dayAgo: number) => {
  const inForce = (i: number, at: number) =>
    db
      .selectFrom('gift_card_rates as r')
      .selectAll('r')
      .select(sql.lit(i).as('moment'))
      .select((eb) => [
        eb
          .selectFrom('gift_card_rates as n')
          .select((e) => e.fn.min('n.set_at').as('m'))
          .where('n.set_at', '>', now)
          .as('next_set'),
        eb
          .selectFrom('gift_card_rates as d')
          .select((e) => e.fn.min('d.set_at').as('m'))
          .where('d.set_at', '>', dayAgo)
          .as('next_after_day_ago'),
      ])
      .where('r.set_at', '=', (eb) => lastSetAt(eb, at))
  return inForce(0, now).unionAll(inForce(1, dayAgo))
})

/** The catalogue's version (migration 0029), a scalar subquery to ride in another statement. */
export const catalogueVersionOf = (eb: ExpressionBuilder<Database, never>) =>
  eb.selectFrom('catalogue_version').select('version').where('id', '=', 1)

/** The catalogue's version on its own, for a call with no other statement to carry it. */
export const readCatalogueVersion = fixedQuery((db) => db.selectNoFrom((eb) => catalogueVersionOf(eb).as('version')))

export const variantKey = (v: VariantKey) => `${v.brandId}|${v.country}|${v.cardType}`

/** A new rate in the history; a second one in the same millisecond replaces the first. */
export async function insertRate(db: Db, row: GiftCardRateRow): Promise<void> {
  await db
    .insertInto('gift_card_rates')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['brand_id', 'country', 'card_type', 'set_at']).doUpdateSet({ rate_micro: row.rate_micro, set_by: row.set_by }),
    )
    .execute()
}

export const rateHistory = (db: Db, v: VariantKey, limit = 200): Promise<GiftCardRateRow[]> =>
  db
    .selectFrom('gift_card_rates')
    .selectAll()
    .where('brand_id', '=', v.brandId)
    .where('country', '=', v.country)
    .where('card_type', '=', v.cardType)
    .orderBy('set_at', 'desc')
    .limit(limit)
    .execute()

export async function setEta(db: Db, brandId: string, etaMinutes: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('gift_card_brands')
    .set({ eta_minutes: etaMinutes, updated_at: now })
    .where('id', '=', brandId)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
