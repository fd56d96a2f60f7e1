import { randomInt } from 'node:crypto'
import type { Updateable } from 'kysely'
import { faceValueLimits, formatRate, parseRate, payoutFor, type CardType } from '#contract/catalogue'
import { formatMoney, minorDigits } from '#contract/money'
import {
  OPEN_STATUSES,
  ORDER_MOVES,
  REJECTION_REASONS,
  type CardStatus,
  type Order,
  type OrderCard,
  type OrderEvent,
  type OrderMove,
  type OrderStatus,
  type OrderSummary,
  type ReasonCode,
  type SellBody,
} from '#contract/orders'
import { formatRefusal, Refusals } from '#contract/refusals'
import { BalanceLogType } from '#contract/wallet'
import { isUniqueViolation, type Db } from '../db/connect'
import type { GiftCardBrandRow, OrderCardRow, OrderRow, OrdersTable, User } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { formatMoment } from '../lib/day'
import { ApiError, refuse, refuseSaying } from '../lib/envelope'
import type { SellingDeps } from '../lib/selling-deps'
import { newId } from '../lib/tokens'
import { audit } from '../models/audit-log'
import { findBrand, findBrands, listBrands } from '../models/catalogue'
import { addNotification, type NotifyEvent } from '../models/notifications'
import * as orders from '../models/orders'
import { ownUploadIds } from '../models/uploads'
import { recordFirstSuccessfulOrder } from './analytics'
import { sendCreditOn } from './auto-withdrawal'
import { checkFaceValues, resolveOffer, toLogo } from './catalogue'
import { credit, requestDigest } from './ledger'

/**
 * Orders (contract/orders.ts): the sale with its locked quote, what the person sees, and every
 * move of the state machine. A move is one write transaction: the guarded status change, its
 * event on the timeline, the money (through the ledger), the audit entry (operators) and the
 * notification to the person — all or nothing.
 */

const MINUTE = 60_000

// ─── Views ──────────────────────────────────────────────────────────────────────────────────────

/** "•••• 7XQ2" for the code, "•••" for a PIN: what every answer shows of an e-code. */
const maskCodes = (codes: string[]) => codes.map((c, i) => (i === 0 ? `•••• ${c.slice(-4)}` : '•••'))

function cardStatus(order: OrderRow, card: OrderCardRow): CardStatus {
  const quoted = Number(card.quoted_payout)
  switch (order.status as OrderStatus) {
    case 'proposed': {
      const proposed = card.proposed_payout === null ? quoted : Number(card.proposed_payout)
      return proposed === 0 ? 'rejected' : proposed < quoted ? 'lowered' : 'accepted'
    }
    case 'completed':
      return Number(card.settled_payout ?? quoted) === 0 ? 'rejected' : 'completed'
    default:
      return order.status as CardStatus
  }
}

const nullableNumber = (v: number | null) => (v === null ? null : Number(v))

async function brandsById(deps: ApiDeps): Promise<Map<string, GiftCardBrandRow>> {
  return new Map((await listBrands(deps.db)).map((b) => [b.id, b]))
}

function toSummary(row: OrderRow, brand: GiftCardBrandRow | undefined, cards: OrderCardRow[]): OrderSummary {
  return {
    id: row.id,
    orderNo: row.order_no,
    status: row.status as OrderStatus,
    brandId: row.brand_id,
    brandName: brand?.name ?? row.brand_id,
    logo: brand ? toLogo(brand) : { initials: row.brand_id.slice(0, 2).toUpperCase(), background: '#555555', foreground: '#FFFFFF' },
    country: row.country,
    currency: row.currency,
    cardType: row.card_type as CardType,
    quotedRate: formatRate(Number(row.quoted_rate_micro)),
    payoutCurrency: row.payout_currency,
    cardCount: cards.length,
    faceValueTotal: cards.reduce((sum, c) => sum + Number(c.face_value), 0),
    quotedPayout: Number(row.quoted_payout),
    proposedPayout: nullableNumber(row.proposed_payout),
    settledPayout: nullableNumber(row.settled_payout),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  }
}

/** Groups rows by one of their keys, keeping their order. */
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r])
  return out
}

/**
 * What the person (and, with the card rows, an operator) sees of these orders: one query per
 * kind for them all (brands, cards, images, timelines, queue places), never one set per order.
 */
export async function toOrderViews(deps: SellingDeps, rows: OrderRow[]): Promise<{ order: Order; cards: OrderCardRow[] }[]> {
  const ids = rows.map((r) => r.id)
  const open = rows.filter((r) => OPEN_STATUSES.includes(r.status as OrderStatus))
  const [brands, allCards, allEvents, positions] = await Promise.all([
    findBrands(
      deps.db,
      rows.map((r) => r.brand_id),
    ),
    orders.cardsOf(deps.db, ids),
    orders.eventsOf(deps.db, ids),
    orders.queuePositions(deps.db, open, OPEN_STATUSES),
  ])
  const images = await orders.imagesOf(
    deps.db,
    allCards.map((c) => c.id),
  )
  const brandOf = new Map(brands.map((b) => [b.id, b]))
  const cardsOf = groupBy(allCards, (c) => c.order_id)
  const eventsOf = groupBy(allEvents, (e) => e.order_id)
  const reasonOf = (code: string | null) =>
    code ? { reasonCode: code as ReasonCode, reasonText: REJECTION_REASONS[code as ReasonCode] } : null
  return rows.map((row) => {
    const cards = cardsOf.get(row.id) ?? []
    const position = positions.get(row.id)
    const order: Order = {
      ...toSummary(row, brandOf.get(row.brand_id), cards),
      cards: cards.map((c): OrderCard => {
        const reason = reasonOf(c.reason_code ?? (row.status === 'rejected' ? row.reason_code : null))
        return {
          cardId: c.id,
          position: c.position,
          faceValue: Number(c.face_value),
          quotedPayout: Number(c.quoted_payout),
          proposedPayout: nullableNumber(c.proposed_payout),
          settledPayout: nullableNumber(c.settled_payout),
          status: cardStatus(row, c),
          reasonCode: reason?.reasonCode ?? null,
          reasonText: reason?.reasonText ?? null,
          maskedCodes: c.codes_masked ? (JSON.parse(c.codes_masked) as string[]) : [],
          imageIds: images.get(c.id) ?? [],
        }
      }),
      rejection: row.status === 'rejected' ? reasonOf(row.reason_code) : null,
      proposal:
        row.proposed_at === null
          ? null
          : {
              payout: Number(row.proposed_payout ?? 0),
              reason: row.proposal_reason ?? '',
              at: Number(row.proposed_at),
              answerBy: Number(row.proposal_answer_by ?? Number(row.proposed_at) + deps.config.selling.offerAnswerMs),
            },
      operatorNote: row.operator_note,
      proofImageId: row.proof_image_id,
      queue:
        position === undefined
          ? null
          : { position, etaMinutes: row.eta_minutes, expectedBy: Number(row.created_at) + row.eta_minutes * MINUTE },
      events: (eventsOf.get(row.id) ?? []).map((e): OrderEvent => ({
        status: e.status as OrderStatus,
        at: Number(e.at),
        by: e.actor as OrderEvent['by'],
        note: e.note,
      })),
    }
    return { order, cards }
  })
}

export async function toOrder(deps: SellingDeps, row: OrderRow): Promise<Order> {
  return (await toOrderViews(deps, [row]))[0].order
}

// ─── The person's calls ─────────────────────────────────────────────────────────────────────────

const ORDER_NO_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ'
const newOrderNo = () => `CL-${Array.from({ length: 8 }, () => ORDER_NO_ALPHABET[randomInt(ORDER_NO_ALPHABET.length)]).join('')}`

/** The same requestId again: the first order, or a refusal when the body differs. */
function repeatOf(row: OrderRow, digest: string): OrderRow {
  if (row.request_hash !== digest) throw refuse(Refusals.IDEMPOTENCY_KEY_REUSED)
  return row
}

const cardLabel = (count: number, i: number) => (count > 1 ? `Card ${i + 1}: ` : '')

export async function sell(deps: SellingDeps, user: User, body: SellBody): Promise<Order> {
  const payoutCurrency = deps.config.wallet.currency
  const quotedMicro = parseRate(body.quotedRate)!
  // Duplicates are found by the code alone; the request digest covers everything sent, codes
  // only as HMACs (never a plain hash of a secret).
  const fingerprints = body.cards.map((c) => (c.cardCodes ? deps.codes.fingerprint(c.cardCodes[0]) : null))
  const imageIds = body.cards.map((c) => (c.imageIds ?? []).map((id) => id.toLowerCase()))
  const digest = requestDigest({
    brandId: body.brandId,
    country: body.country,
    cardType: body.cardType,
    quotedRate: quotedMicro,
    cards: JSON.stringify(
      body.cards.map((c, i) => [c.faceValue, c.cardCodes ? deps.codes.fingerprint(c.cardCodes.join(' ')) : imageIds[i]]),
    ),
  })
  const seen = await orders.findByRequestId(deps.db, user.id, body.requestId)
  if (seen) return toOrder(deps, repeatOf(seen, digest))

  const now = deps.now()
  const { brand, variant, offer, rate } = await resolveOffer(deps.db, body, now)
  checkFaceValues(
    offer,
    variant.currency,
    body.cards.map((c) => c.faceValue),
  )
  const currentMicro = Number(rate.rate_micro)
  const payouts = body.cards.map((c) => payoutFor(c.faceValue, currentMicro, variant.currency, payoutCurrency))
  const total = payouts.reduce((a, b) => a + b, 0)
  if (quotedMicro !== currentMicro) {
    const unit = 10 ** minorDigits(variant.currency)
    const perUnit = (micro: number) => formatMoney(payoutFor(unit, micro, variant.currency, payoutCurrency), payoutCurrency)
    throw refuse(Refusals.RATE_CHANGED, {
      rate: perUnit(currentMicro),
      unit: formatMoney(unit, variant.currency),
      seen: perUnit(quotedMicro),
      payout: formatMoney(total, payoutCurrency),
    })
  }
  if (total <= 0) throw refuse(Refusals.FACE_VALUE_OUT_OF_RANGE, faceValueLimits(offer, variant.currency))
  const owned = await ownUploadIds(deps.db, user.id, [...new Set(imageIds.flat())])
  imageIds.forEach((ids, i) => {
    if (ids.some((id) => !owned.has(id)))
      throw refuseSaying(Refusals.IMAGE_NOT_FOUND, `${cardLabel(body.cards.length, i)}${formatRefusal(Refusals.IMAGE_NOT_FOUND)}`)
  })

  const duplicate = (i: number) =>
    refuseSaying(Refusals.CODE_ALREADY_SUBMITTED, `${cardLabel(body.cards.length, i)}${formatRefusal(Refusals.CODE_ALREADY_SUBMITTED)}`)
  let row: OrderRow
  try {
    row = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
      const again = await orders.findByRequestId(trx, user.id, body.requestId)
      if (again) return repeatOf(again, digest)
      const taken = await orders.seenFingerprints(
        trx,
        fingerprints.filter((f): f is string => f !== null),
      )
      const dup = fingerprints.findIndex((f) => f !== null && taken.has(f))
      if (dup >= 0) {
        // The code may be this very request's, made by a twin that committed after the check above.
        const twin = await orders.findByRequestId(trx, user.id, body.requestId)
        if (twin) return repeatOf(twin, digest)
        throw duplicate(dup)
      }
      let orderNo = newOrderNo()
      while (await orders.orderNoTaken(trx, orderNo)) orderNo = newOrderNo()
      const order: OrderRow = {
        id: newId(),
        order_no: orderNo,
        user_id: user.id,
        request_id: body.requestId,
        request_hash: digest,
        brand_id: brand.id,
        country: variant.country,
        currency: variant.currency,
        card_type: variant.card_type,
        quoted_rate_micro: quotedMicro,
        payout_currency: payoutCurrency,
        quoted_payout: total,
        proposed_payout: null,
        proposal_answer_by: null,
        settled_payout: null,
        status: 'pending',
        reason_code: null,
        proposal_reason: null,
        proposed_at: null,
        operator_note: null,
        proof_image_id: null,
        claimed_by: null,
        claim_expires_at: null,
        eta_minutes: brand.eta_minutes,
        created_at: now,
        updated_at: now,
        decided_at: null,
      }
      const cards: OrderCardRow[] = body.cards.map((c, i) => {
        const id = newId()
        return {
          id,
          order_id: order.id,
          position: i + 1,
          face_value: c.faceValue,
          quoted_payout: payouts[i],
          proposed_payout: null,
          settled_payout: null,
          reason_code: null,
          codes_cipher: c.cardCodes ? deps.codes.seal(JSON.stringify(c.cardCodes), id) : null,
          codes_masked: c.cardCodes ? JSON.stringify(maskCodes(c.cardCodes)) : null,
          code_hmac: fingerprints[i],
        }
      })
      await orders.insertOrder(trx, order)
      await orders.insertCards(trx, cards)
      await orders.insertCardImages(
        trx,
        cards.flatMap((card, i) => imageIds[i].map((uploadId, position) => ({ order_card_id: card.id, upload_id: uploadId, position }))),
      )
      await orders.insertFingerprints(
        trx,
        cards.flatMap((card, i) => (fingerprints[i] ? [{ code_hmac: fingerprints[i], order_card_id: card.id, created_at: now }] : [])),
      )
      await orders.addOrderEvent(trx, { orderId: order.id, status: 'pending', actor: 'you', note: null }, now)
      await addNotification(
        trx,
        {
          userId: user.id,
          kind: 'order',
          refId: order.id,
          title: 'Order received',
          content: `Your ${brand.name} order ${orderNo} (${formatMoney(total, payoutCurrency)} at the quoted rate) is in the review queue. Reviews of ${brand.name} cards take about ${brand.eta_minutes} minutes.`,
        },
        now,
      )
      return order
    })
  } catch (err) {
    // Two submissions raced past the checks: the unique indexes kept one order per requestId and
    // one order per code. Answer the winner, or refuse the code.
    if (!isUniqueViolation(err)) throw err
    const winner = await orders.findByRequestId(deps.db, user.id, body.requestId)
    if (winner) row = repeatOf(winner, digest)
    else
      throw duplicate(
        Math.max(
          0,
          fingerprints.findIndex((f) => f !== null),
        ),
      )
  }
  return toOrder(deps, row)
}

export async function orderPage(deps: SellingDeps, user: User, q: { pageNum: number; pageSize: number; status?: OrderStatus }) {
  const { rows, total } = await orders.pageOrders(
    deps.db,
    { userId: user.id, statuses: q.status ? [q.status] : undefined },
    q.pageNum,
    q.pageSize,
  )
  const [brands, cards] = await Promise.all([
    brandsById(deps),
    orders.cardsOf(
      deps.db,
      rows.map((r) => r.id),
    ),
  ])
  const list = rows.map((r) =>
    toSummary(
      r,
      brands.get(r.brand_id),
      cards.filter((c) => c.order_id === r.id),
    ),
  )
  return { list, total, pageNum: q.pageNum, pageSize: q.pageSize }
}

const newestOpenOrders = orders.newestOrdersIn([...OPEN_STATUSES, 'proposed'])

/** Orders still waiting for a decision (Home): pending, reviewing or proposed, newest first. */
/** `brands`: the catalogue's brands when the caller read them already (the user index). */
export async function openOrders(
  deps: ApiDeps,
  user: User,
  limit: number,
  brandRows?: Promise<GiftCardBrandRow[]>,
): Promise<{ count: number; latest: OrderSummary[] }> {
  const { rows, total } = await newestOpenOrders(deps.db, user.id, limit)
  if (rows.length === 0) return { count: total, latest: [] }
  const [brands, cards] = await Promise.all([
    brandRows ? brandRows.then((all) => new Map(all.map((b) => [b.id, b]))) : brandsById(deps),
    orders.cardsOf(
      deps.db,
      rows.map((r) => r.id),
    ),
  ])
  return {
    count: total,
    latest: rows.map((r) =>
      toSummary(
        r,
        brands.get(r.brand_id),
        cards.filter((c) => c.order_id === r.id),
      ),
    ),
  }
}

export async function orderDetail(deps: SellingDeps, user: User, id: string): Promise<Order> {
  const row = await orders.findOrder(deps.db, id)
  if (!row || row.user_id !== user.id) throw refuse(Refusals.ORDER_NOT_FOUND)
  return toOrder(deps, row)
}

export const holdsClaim = (row: OrderRow, actor: string, now: number) =>
  row.status === 'reviewing' && row.claimed_by === actor && Number(row.claim_expires_at ?? 0) > now

// ─── Moves ──────────────────────────────────────────────────────────────────────────────────────

export function badMove(move: OrderMove, status: string): string {
  switch (move) {
    case 'cancel':
      return `Only a pending order can be cancelled. This one is ${status}`
    case 'accept':
    case 'decline':
    case 'lapse':
      return `There is no lower payout waiting for your answer on this order. It is ${status}`
    case 'claim':
      return `Only a pending order can be claimed. This one is ${status}`
    default:
      return status === 'pending' ? 'Claim the order first: it is still pending' : `This order is already ${status}`
  }
}

/** The moves a person hears of beyond the app, with what a lock screen may show of them (decision 046). */
function orderNotifyEvent(move: OrderMove, o: OrderRow, brand: string, timeZone: string): NotifyEvent | undefined {
  const order = `${brand} order ${o.order_no}`
  if (move === 'complete' || move === 'accept')
    return { kind: 'order_paid', summary: `Your ${order} is paid: the money is in your wallet.` }
  if (move === 'propose') {
    const by = o.proposal_answer_by === null ? '' : ` by ${formatMoment(Number(o.proposal_answer_by), timeZone)}`
    return { kind: 'order_offer', summary: `A lower offer for your ${order} is waiting for your answer${by}.` }
  }
  if (move === 'lapse') return { kind: 'order_offer', summary: `The lower offer for your ${order} lapsed: the card was not redeemed.` }
  if (move === 'reject') {
    const reason = o.reason_code && o.reason_code in REJECTION_REASONS ? REJECTION_REASONS[o.reason_code as ReasonCode] : 'see the order'
    return { kind: 'order_rejected', summary: `Your ${order} was rejected: ${reason}.` }
  }
  return undefined
}

type MoveWork = (
  trx: Db,
  current: OrderRow,
  brandName: string,
) => Promise<{
  patch: Updateable<OrdersTable>
  /** On the timeline. */
  note: string | null
  notification: { title: string; content: string }
  /** More work in the same transaction, after the status changed (money, cards, analytics). */
  after?: (next: OrderRow) => Promise<void>
}>

/**
 * One move of the state machine (contract ORDER_MOVES), in one write transaction. Repeating the
 * move that was already made answers the order and changes nothing; any other status refuses.
 */
export async function transition(
  deps: ApiDeps,
  o: { id: string; move: OrderMove; userId?: string; actor: string },
  work: MoveWork,
): Promise<OrderRow> {
  const rule = ORDER_MOVES[o.move]
  const now = deps.now()
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const current = await orders.lockOrder(trx, deps.dbKind, o.id)
    if (!current || (o.userId !== undefined && current.user_id !== o.userId)) throw refuse(Refusals.ORDER_NOT_FOUND)
    if (current.status === rule.to) return current
    if (current.status !== rule.from) throw refuseSaying(Refusals.ORDER_BAD_MOVE, badMove(o.move, current.status))
    // A reviewer's decision needs the claim they hold, unexpired: one reviewer at a time.
    const decision = rule.by === 'operator' && rule.from === 'reviewing'
    if (decision && !holdsClaim(current, o.actor, now)) throw refuse(Refusals.ORDER_CLAIM_NEEDED)
    const brandName = (await findBrand(trx, current.brand_id))?.name ?? current.brand_id
    const { patch, note, notification, after } = await work(trx, current, brandName)
    if (!(await orders.moveOrder(trx, current.id, rule.from, { ...patch, status: rule.to }, now, decision ? o.actor : undefined))) {
      throw refuseSaying(Refusals.ORDER_BAD_MOVE, badMove(o.move, current.status))
    }
    const next: OrderRow = { ...current, ...(patch as Partial<OrderRow>), status: rule.to, updated_at: now }
    await orders.addOrderEvent(trx, { orderId: current.id, status: rule.to, actor: rule.by === 'person' ? 'you' : rule.by, note }, now)
    await after?.(next)
    if (rule.by === 'operator') {
      await audit(
        trx,
        { actor: o.actor, action: `order.${o.move}`, targetType: 'order', targetId: current.id, before: current, after: next },
        now,
      )
    }
    const notify = orderNotifyEvent(o.move, next, brandName, deps.config.wallet.timeZone)
    await addNotification(
      trx,
      { userId: current.user_id, kind: 'order', refId: current.id, ...notification, ...(notify && { notify }) },
      now,
    )
    return next
  })
}

/** The wallet credit of a completed order: exactly once (the ledger key), in the move's transaction. */
export async function payOut(trx: Db, order: OrderRow, amount: number, now: number): Promise<void> {
  if (amount > 0) {
    await credit(
      trx,
      {
        userId: order.user_id,
        amount,
        type: BalanceLogType.ORDER_PAYOUT,
        refType: 'order',
        refId: order.id,
        note: `Order ${order.order_no}`,
        key: `order:${order.id}:payout`,
      },
      order.payout_currency,
      now,
    )
    await recordFirstSuccessfulOrder(trx, order.user_id, order.id, now)
  }
}

export const money = (o: OrderRow, amount: number | null) => formatMoney(Number(amount ?? 0), o.payout_currency)

export async function cancelOrder(deps: SellingDeps, user: User, id: string): Promise<Order> {
  const row = await transition(deps, { id, move: 'cancel', userId: user.id, actor: 'you' }, async (trx, o, brand) => ({
    patch: { settled_payout: 0 },
    note: null,
    notification: {
      title: 'Order cancelled',
      content: `You cancelled your ${brand} order ${o.order_no}. Its cards were not redeemed, and their codes can be sold again.`,
    },
    after: async () => {
      await orders.settleCards(trx, o.id, 'nothing')
      await orders.releaseFingerprints(trx, o.id)
    },
  }))
  return toOrder(deps, row)
}

/** Past its deadline an offer can no longer be accepted: it lapses (the lapse worker closes it). */
const lapsed = (o: OrderRow, now: number) => o.proposal_answer_by !== null && now >= Number(o.proposal_answer_by)

export async function acceptOrder(deps: SellingDeps, user: User, id: string): Promise<Order> {
  const now = deps.now()
  const row = await transition(deps, { id, move: 'accept', userId: user.id, actor: 'you' }, async (trx, o, brand) => {
    if (lapsed(o, now)) {
      throw refuseSaying(
        Refusals.ORDER_BAD_MOVE,
        `This offer lapsed at ${formatMoment(Number(o.proposal_answer_by), deps.config.wallet.timeZone)}: the order closes and the card stays yours`,
      )
    }
    return {
      patch: { settled_payout: o.proposed_payout },
      note: `You accepted ${money(o, o.proposed_payout)}`,
      notification: {
        title: 'Order completed',
        content: `You accepted ${money(o, o.proposed_payout)} for your ${brand} order ${o.order_no}. It is in your wallet now.`,
      },
      after: async (next) => {
        await orders.settleCards(trx, o.id, 'proposed')
        await payOut(trx, next, Number(o.proposed_payout ?? 0), now)
      },
    }
  })
  await sendCreditOn(deps, row, Number(row.settled_payout ?? 0))
  return toOrder(deps, row)
}

export async function declineOrder(deps: SellingDeps, user: User, id: string): Promise<Order> {
  const row = await transition(deps, { id, move: 'decline', userId: user.id, actor: 'you' }, async (trx, o, brand) => ({
    patch: { settled_payout: 0 },
    note: 'You declined the lower payout',
    notification: {
      title: 'Offer declined',
      content: `You declined ${money(o, o.proposed_payout)} for your ${brand} order ${o.order_no}. The order is closed, the cards were not redeemed, and nothing was credited.`,
    },
    after: async () => orders.settleCards(trx, o.id, 'nothing'),
  }))
  return toOrder(deps, row)
}

/**
 * Closes every lower offer whose deadline has passed unanswered, as a decline made by the system
 * (decision 051): nothing is paid, the cards are not redeemed. Each order is its own transition,
 * so a person's answer that got in first wins and several instances running this close each offer
 * once. Returns how many it closed.
 */
export async function lapseOffers(deps: ApiDeps, limit = 100): Promise<number> {
  const now = deps.now()
  const due = await orders.offersDue(deps.db, now, limit)
  let closed = 0
  for (const id of due) {
    try {
      await transition(deps, { id, move: 'lapse', actor: 'system' }, async (trx, o, brand) => ({
        patch: { settled_payout: 0 },
        note: `No answer by ${formatMoment(Number(o.proposal_answer_by), deps.config.wallet.timeZone)}: the offer lapsed`,
        notification: {
          title: 'Offer lapsed',
          content: `The lower offer of ${money(o, o.proposed_payout)} for your ${brand} order ${o.order_no} lapsed without an answer. The order is closed, the cards were not redeemed, and nothing was credited.`,
        },
        after: async () => orders.settleCards(trx, o.id, 'nothing'),
      }))
      closed++
    } catch (err) {
      // The person answered between the read and the lock: their answer stands.
      if (!(err instanceof ApiError && err.code === Refusals.ORDER_BAD_MOVE.code)) throw err
    }
  }
  return closed
}
