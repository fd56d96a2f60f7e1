import { sql, type Updateable } from 'kysely'
import type { Db, DbKind } from '../db/connect'
import { preparedQuery } from '../db/fixed-query'
import type { OrderCardRow, OrderEventRow, OrderRow, OrdersTable } from '../db/schema'
import { newId } from '../lib/tokens'

/** Orders, their cards, photos, timeline, and the e-code fingerprints. */

export async function insertOrder(db: Db, row: OrderRow): Promise<void> {
  await db.insertInto('orders').values(row).execute()
}

export async function insertCards(db: Db, rows: OrderCardRow[]): Promise<void> {
  if (rows.length) await db.insertInto('order_cards').values(rows).execute()
}

export async function insertCardImages(db: Db, rows: { order_card_id: string; upload_id: string; position: number }[]): Promise<void> {
  if (rows.length) await db.insertInto('order_card_images').values(rows).execute()
}

export async function insertFingerprints(db: Db, rows: { code_hmac: string; order_card_id: string; created_at: number }[]): Promise<void> {
  if (rows.length) await db.insertInto('ecode_fingerprints').values(rows).execute()
}

/** Which of these fingerprints were submitted before. */
export async function seenFingerprints(db: Db, hmacs: string[]): Promise<Set<string>> {
  if (hmacs.length === 0) return new Set()
  const rows = await db.selectFrom('ecode_fingerprints').select('code_hmac').where('code_hmac', 'in', hmacs).execute()
  return new Set(rows.map((r) => r.code_hmac))
}

/** A cancelled order gives its codes back: they may be sold again. */
export async function releaseFingerprints(db: Db, orderId: string): Promise<void> {
  await db
    .deleteFrom('ecode_fingerprints')
    .where('order_card_id', 'in', (eb) => eb.selectFrom('order_cards').select('id').where('order_id', '=', orderId))
    .execute()
}

export const findOrder = (db: Db, id: string): Promise<OrderRow | undefined> =>
  db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst()

/** The order row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const lockOrder = (db: Db, kind: DbKind, id: string): Promise<OrderRow | undefined> =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

export const findByRequestId = (db: Db, userId: string, requestId: string): Promise<OrderRow | undefined> =>
  db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst()

export const cardsOf = (db: Db, orderIds: string[]): Promise<OrderCardRow[]> =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('order_cards').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('position').execute()

export async function imagesOf(db: Db, cardIds: string[]): Promise<Map<string, string[]>> {
  if (cardIds.length === 0) return new Map()
  const rows = await db.selectFrom('order_card_images').selectAll().where('order_card_id', 'in', cardIds).orderBy('position').execute()
  const out = new Map<string, string[]>()
  for (const r of rows) out.set(r.order_card_id, [...(out.get(r.order_card_id) ?? []), r.upload_id])
  return out
}

/** The timelines of these orders, each in its order. */
export const eventsOf = (db: Db, orderIds: string[]): Promise<OrderEventRow[]> =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('order_events').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('seq').execute()

/** A reviewer's first decision on an order (an order lowered and then accepted was decided when lowered). */
export const REVIEW_DECISIONS = ['completed', 'proposed', 'rejected'] as const

/** The next event on the timeline; a reviewer's first decision is also kept on the order (`decided_at`). Inside the move's transaction, with the order row locked. */
export async function addOrderEvent(
  db: Db,
  e: { orderId: string; status: string; actor: string; note: string | null },
  at: number,
): Promise<void> {
  const last = await db
    .selectFrom('order_events')
    .select((eb) => eb.fn.max<number>('seq').as('seq'))
    .where('order_id', '=', e.orderId)
    .executeTakeFirst()
  await db
    .insertInto('order_events')
    .values({ id: newId(), order_id: e.orderId, seq: Number(last?.seq ?? 0) + 1, status: e.status, actor: e.actor, note: e.note, at })
    .execute()
  if (e.actor === 'operator' && (REVIEW_DECISIONS as readonly string[]).includes(e.status))
    await db.updateTable('orders').set({ decided_at: at }).where('id', '=', e.orderId).where('decided_at', 'is', null).execute()
}

/** Moves the status only from `from` (and, for a reviewer's decision, only under their claim): false when another move won the race. */
export async function moveOrder(
  db: Db,
  id: string,
  from: string,
  patch: Updateable<OrdersTable>,
  now: number,
  claimHolder?: string,
): Promise<boolean> {
  const r = await db
    .updateTable('orders')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .$if(claimHolder !== undefined, (q) => q.where('claimed_by', '=', claimHolder!).where('claim_expires_at', '>', now))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * The claim, as one conditional UPDATE: a pending order, or a reviewing one whose claim is the
 * reviewer's own or has lapsed. Of parallel claims exactly one matches (both databases).
 */
export async function claimOrderRow(
  db: Db,
  id: string,
  reviewer: string,
  now: number,
  patch: { claimed_by: string; claim_expires_at: number },
): Promise<boolean> {
  const r = await db
    .updateTable('orders')
    .set({ ...patch, status: 'reviewing', updated_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([
          eb('status', '=', 'reviewing'),
          eb.or([eb('claimed_by', '=', reviewer), eb('claim_expires_at', '<=', now), eb('claim_expires_at', 'is', null)]),
        ]),
      ]),
    )
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function updateCard(
  db: Db,
  id: string,
  patch: { proposed_payout?: number | null; settled_payout?: number | null; reason_code?: string | null },
): Promise<void> {
  await db.updateTable('order_cards').set(patch).where('id', '=', id).execute()
}

/** Settles every card of an order: at its quote, at its proposed payout (else its quote), or at nothing. */
export async function settleCards(db: Db, orderId: string, how: 'quoted' | 'proposed' | 'nothing'): Promise<void> {
  await db
    .updateTable('order_cards')
    .set((eb) => ({
      settled_payout:
        how === 'nothing' ? eb.lit(0) : how === 'quoted' ? eb.ref('quoted_payout') : eb.fn.coalesce('proposed_payout', 'quoted_payout'),
    }))
    .where('order_id', '=', orderId)
    .execute()
}

/** Which orders: one person's, some statuses, one brand, country or card type (the review queue's filters). */
export type OrderFilter = { userId?: string; statuses?: string[]; brandId?: string; country?: string; cardType?: string }

function filtered(db: Db, filter: OrderFilter) {
  let q = db.selectFrom('orders')
  if (filter.userId) q = q.where('user_id', '=', filter.userId)
  if (filter.statuses) q = q.where('status', 'in', filter.statuses)
  if (filter.brandId) q = q.where('brand_id', '=', filter.brandId)
  if (filter.country) q = q.where('country', '=', filter.country)
  if (filter.cardType) q = q.where('card_type', '=', filter.cardType)
  return q
}

/** How many orders match, and how many of them are past their brand's promised ETA at `now`. */
export async function countWaiting(db: Db, filter: OrderFilter, now: number): Promise<{ total: number; late: number }> {
  const r = await filtered(db, filter)
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(sql`case when created_at + eta_minutes * 60000 < ${now} then 1 else 0 end`).as('late'),
    ])
    .executeTakeFirstOrThrow()
  return { total: Number(r.total), late: Number(r.late ?? 0) }
}

export async function pageOrders(db: Db, filter: OrderFilter & { oldestFirst?: boolean }, pageNum: number, pageSize: number) {
  const q = filtered(db, filter)
  const order = filter.oldestFirst ? 'asc' : 'desc'
  // One round trip: the total rides on every row of the page (a window count over the filter).
  const found = await q
    .selectAll()
    .select((eb) => eb.fn.countAll<number>().over().as('total_found'))
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize)
    .execute()
  const rows = found.map(({ total_found: _, ...row }) => row)
  if (found.length > 0) return { rows, total: Number(found[0].total_found) }
  // A page past the end has no row to carry the total: only then is it asked on its own.
  const count = pageNum > 1 ? await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : { n: 0 }
  return { rows, total: Number(count.n) }
}

/**
 * A person's newest orders in `statuses` (a set fixed by the caller), at most `limit`, and how many
 * there are: `pageOrders`' first page, built and compiled once per database handle (decision 055).
 */
export function newestOrdersIn(statuses: readonly string[]) {
  const run = preparedQuery(2, (db, userId: string, limit: number) =>
    db
      .selectFrom('orders')
      .selectAll()
      .select((eb) => eb.fn.countAll<number>().over().as('total_found'))
      .where('user_id', '=', userId)
      .where('status', 'in', [...statuses])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
  )
  return async (db: Db, userId: string, limit: number) => {
    const found = await run(db, userId, limit)
    return { rows: found.map(({ total_found: _, ...row }) => row), total: found.length > 0 ? Number(found[0].total_found) : 0 }
  }
}

/** Each order's place in the queue: 1 + the open orders (pending or reviewing) that came before it. One query for them all. */
export async function queuePositions(
  db: Db,
  rows: Pick<OrderRow, 'id' | 'created_at'>[],
  openStatuses: readonly string[],
): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map()
  const found = await db
    .selectFrom('orders as o')
    .select((eb) => [
      'o.id',
      eb
        .selectFrom('orders as before')
        .select((b) => b.fn.countAll<number>().as('n'))
        .where('before.status', 'in', [...openStatuses])
        .where((b) =>
          b.or([
            b('before.created_at', '<', b.ref('o.created_at')),
            b.and([b('before.created_at', '=', b.ref('o.created_at')), b('before.id', '<', b.ref('o.id'))]),
          ]),
        )
        .as('ahead'),
    ])
    .where(
      'o.id',
      'in',
      rows.map((r) => r.id),
    )
    .execute()
  return new Map(found.map((r) => [r.id, Number(r.ahead ?? 0) + 1]))
}

/** Order numbers are random; one already given is drawn again. */
export const orderNoTaken = async (db: Db, orderNo: string): Promise<boolean> =>
  (await db.selectFrom('orders').select('id').where('order_no', '=', orderNo).executeTakeFirst()) !== undefined

/** Lower offers past their deadline, oldest first (the lapse worker's batch). */
export async function offersDue(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'proposed')
    .where('proposal_answer_by', '<=', now)
    .orderBy('proposal_answer_by')
    .limit(limit)
    .execute()
  return rows.map((r) => r.id)
}
