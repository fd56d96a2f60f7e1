import { CLAIM_MS, type DeskOrder, type QueuePageQuery, type QueueData, type QueueItem } from '#contract/ops/review'
import { OPEN_STATUSES, REJECTION_REASONS, type OrderStatus, type ReasonCode } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../../db/connect'
import type { OrderRow } from '../../db/schema'
import { writeTransaction } from '../../db/transaction'
import { formatMoment } from '../../lib/day'
import { refuse, refuseSaying } from '../../lib/envelope'
import type { SellingDeps } from '../../lib/selling-deps'
import { audit } from '../../models/audit-log'
import { findBrand } from '../../models/catalogue'
import { addNotification } from '../../models/notifications'
import * as orders from '../../models/orders'
import { findProofFor } from '../../models/uploads'
import { findUsersByIds } from '../../models/users'
import { sendCreditOn } from '../auto-withdrawal'
import { badMove, holdsClaim, money, payOut, toOrderViews, transition } from '../orders'

/**
 * Operator review of orders (/admin/order/*): the queue, the operators' view with e-codes revealed
 * to the claim holder, the claim, and the reviewer's moves through the orders' state machine.
 */

/**
 * The operators' view of these orders: the person, who claimed each, and each e-code decrypted
 * (they redeem it) only where `revealTo` holds the claim; each reveal is audited. One query per
 * kind for all the orders (toOrderViews), so a page of the queue costs the same as one order.
 */
async function toAdminOrders(deps: SellingDeps, rows: OrderRow[], revealTo?: string): Promise<DeskOrder[]> {
  const now = deps.now()
  const [views, owners] = await Promise.all([
    toOrderViews(deps, rows),
    findUsersByIds(
      deps.db,
      rows.map((r) => r.user_id),
    ),
  ])
  const emailOf = new Map(owners.map((u) => [u.id, u.email]))
  const result: DeskOrder[] = []
  for (const [i, row] of rows.entries()) {
    const { order, cards } = views[i]
    const reveal = revealTo !== undefined && holdsClaim(row, revealTo, now)
    const sealed = new Map(cards.map((c) => [c.id, c.codes_cipher]))
    result.push({
      ...order,
      userId: row.user_id,
      email: emailOf.get(row.user_id) ?? '',
      claimedBy: row.claimed_by,
      claimExpiresAt: row.claim_expires_at === null ? null : Number(row.claim_expires_at),
      cards: order.cards.map((c) => {
        const cipher = reveal ? sealed.get(c.cardId) : undefined
        let codes: string[] = []
        if (cipher) {
          try {
            codes = JSON.parse(deps.codes.open(cipher, c.cardId)) as string[]
          } catch {
            // Sealed with another CODES_KEY: say so instead of failing the whole queue.
            deps.logger.warn({ orderId: row.id, cardId: c.cardId }, 'an e-code does not open with this CODES_KEY')
            codes = ['(cannot be decrypted with this CODES_KEY)']
          }
        }
        return { ...c, codes }
      }),
    })
    if (reveal && cards.some((c) => c.codes_cipher)) {
      await audit(
        deps.db,
        { actor: revealTo, action: 'order.reveal', targetType: 'order', targetId: row.id, before: null, after: null },
        now,
      )
    }
  }
  return result
}

const toAdminOrder = async (deps: SellingDeps, row: OrderRow, revealTo?: string): Promise<DeskOrder> =>
  (await toAdminOrders(deps, [row], revealTo))[0]

const MINUTE = 60_000

/** The queue: oldest first, filtered, each order's age against its brand's ETA, and what waits. */
export async function adminQueue(deps: SellingDeps, q: QueuePageQuery): Promise<QueueData> {
  const now = deps.now()
  const where = { brandId: q.brand, country: q.country, cardType: q.type }
  const [{ rows, total }, waiting] = await Promise.all([
    orders.pageOrders(
      deps.db,
      { ...where, statuses: q.status ? [q.status] : [...OPEN_STATUSES], oldestFirst: true },
      q.pageNum,
      q.pageSize,
    ),
    orders.countWaiting(deps.db, { ...where, statuses: [...OPEN_STATUSES] }, now),
  ])
  const list = (await toAdminOrders(deps, rows)).map((o, i): QueueItem => ({
    ...o,
    ageMinutes: Math.floor((now - Number(rows[i].created_at)) / MINUTE),
    late: OPEN_STATUSES.includes(rows[i].status as OrderStatus) && now > Number(rows[i].created_at) + rows[i].eta_minutes * MINUTE,
  }))
  return { list, total, pageNum: q.pageNum, pageSize: q.pageSize, waiting }
}

/** The order; its e-codes decrypted (and the reveal audited) for the claim holder unless `codes` is hide. */
export async function adminDetail(deps: SellingDeps, actor: string, q: { id: string; codes?: 'show' | 'hide' }): Promise<DeskOrder> {
  const row = await orders.findOrder(deps.db, q.id)
  if (!row) throw refuse(Refusals.ORDER_NOT_FOUND)
  return toAdminOrder(deps, row, q.codes === 'hide' ? undefined : actor)
}

/** The e-codes, to the claim holder only: a reveal is audited, so it is asked for, not loaded with the page. */
export async function revealCodes(deps: SellingDeps, actor: string, id: string): Promise<DeskOrder> {
  const row = await orders.findOrder(deps.db, id)
  if (!row) throw refuse(Refusals.ORDER_NOT_FOUND)
  if (!holdsClaim(row, actor, deps.now())) throw refuse(Refusals.ORDER_CLAIM_NEEDED)
  return toAdminOrder(deps, row, actor)
}

/**
 * Claims an order for review: a pending one (the person is told), or a reviewing one whose claim
 * is this reviewer's (renewed) or has lapsed (taken over). One conditional UPDATE decides, so of
 * parallel claims exactly one wins; the others learn who holds it. Answers the codes to the holder.
 */
export async function claimOrder(deps: SellingDeps, actor: string, id: string): Promise<DeskOrder> {
  const now = deps.now()
  const outcome = await writeTransaction(deps.db, deps.dbKind, async (trx): Promise<OrderRow | { held: OrderRow }> => {
    const current = await orders.lockOrder(trx, deps.dbKind, id)
    if (!current) throw refuse(Refusals.ORDER_NOT_FOUND)
    if (current.status !== 'pending' && current.status !== 'reviewing')
      throw refuseSaying(Refusals.ORDER_BAD_MOVE, badMove('claim', current.status))
    const patch = { claimed_by: actor, claim_expires_at: now + CLAIM_MS }
    if (!(await orders.claimOrderRow(trx, id, actor, now, patch))) return { held: (await orders.findOrder(trx, id)) ?? current }
    const next: OrderRow = { ...current, ...patch, status: 'reviewing', updated_at: now }
    await audit(trx, { actor, action: 'order.claim', targetType: 'order', targetId: id, before: current, after: next }, now)
    if (current.status === 'pending') {
      const brand = (await findBrand(trx, current.brand_id))?.name ?? current.brand_id
      await orders.addOrderEvent(trx, { orderId: id, status: 'reviewing', actor: 'operator', note: null }, now)
      await addNotification(
        trx,
        {
          userId: current.user_id,
          kind: 'order',
          refId: id,
          title: 'Order in review',
          content: `We are reviewing your ${brand} order ${current.order_no} now.`,
        },
        now,
      )
    }
    return next
  })
  if ('held' in outcome) {
    const h = outcome.held
    const until = new Date(Number(h.claim_expires_at ?? now)).toISOString().slice(11, 16)
    throw refuse(Refusals.ORDER_CLAIMED, { reviewer: h.claimed_by ?? 'Another reviewer', until })
  }
  return toAdminOrder(deps, outcome, actor)
}

export async function completeOrder(deps: SellingDeps, actor: string, body: { id: string; note?: string }): Promise<DeskOrder> {
  const now = deps.now()
  const row = await transition(deps, { id: body.id, move: 'complete', actor }, async (trx, o, brand) => ({
    patch: { settled_payout: o.quoted_payout, operator_note: body.note ?? null },
    note: `Paid ${money(o, o.quoted_payout)}`,
    notification: {
      title: 'Order completed',
      content: `Your ${brand} order ${o.order_no} is complete: ${money(o, o.quoted_payout)}, the full quote, is in your wallet.${body.note ? ` ${body.note}` : ''}`,
    },
    after: async (next) => {
      await orders.settleCards(trx, o.id, 'quoted')
      await payOut(trx, next, Number(o.quoted_payout), now)
    },
  }))
  await sendCreditOn(deps, row, Number(row.settled_payout ?? 0))
  return toAdminOrder(deps, row)
}

export async function proposeOrder(
  deps: SellingDeps,
  actor: string,
  body: { id: string; reason: string; cards: { cardId: string; payout: number; reasonCode: ReasonCode }[] },
): Promise<DeskOrder> {
  const now = deps.now()
  const answerBy = now + deps.config.selling.offerAnswerMs
  const row = await transition(deps, { id: body.id, move: 'propose', actor }, async (trx, o, brand) => {
    const cards = await orders.cardsOf(trx, [o.id])
    const named = new Map(body.cards.map((c) => [c.cardId, c]))
    for (const c of body.cards) {
      const card = cards.find((x) => x.id === c.cardId)
      if (!card) throw refuseSaying(Refusals.PROPOSAL_NOT_LOWER, `There is no card ${c.cardId} in this order`)
      if (c.payout >= Number(card.quoted_payout)) {
        throw refuseSaying(
          Refusals.PROPOSAL_NOT_LOWER,
          `Card ${card.position}: a proposal must be lower than its quote of ${money(o, card.quoted_payout)}`,
        )
      }
    }
    const proposed = cards.reduce((sum, c) => sum + (named.get(c.id)?.payout ?? Number(c.quoted_payout)), 0)
    if (proposed <= 0) throw refuseSaying(Refusals.PROPOSAL_NOT_LOWER, 'This proposal pays nothing: reject the order instead')
    return {
      patch: {
        proposed_payout: proposed,
        proposal_reason: body.reason,
        proposed_at: now,
        proposal_answer_by: answerBy,
        operator_note: body.reason,
      },
      note: body.reason,
      notification: {
        title: 'A lower payout is offered',
        content: `We can pay ${money(o, proposed)} instead of ${money(o, o.quoted_payout)} for your ${brand} order ${o.order_no}: ${body.reason}. Open the order to accept or decline it by ${formatMoment(answerBy, deps.config.wallet.timeZone)}; unanswered, the offer lapses and the card stays yours.`,
      },
      after: async () => {
        for (const c of cards) {
          const change = named.get(c.id)
          await orders.updateCard(trx, c.id, {
            proposed_payout: change ? change.payout : Number(c.quoted_payout),
            reason_code: change?.reasonCode ?? null,
          })
        }
      },
    }
  })
  return toAdminOrder(deps, row)
}

export async function rejectOrder(
  deps: SellingDeps,
  actor: string,
  body: { id: string; reasonCode: ReasonCode; note?: string; proofImageId?: string },
): Promise<DeskOrder> {
  const proofImageId = body.proofImageId?.toLowerCase()
  const row = await transition(deps, { id: body.id, move: 'reject', actor }, async (trx, o, brand) => {
    if (proofImageId && !(await findProofFor(trx, proofImageId, o.id, actor))) throw refuse(Refusals.PROOF_NOT_OPERATORS)
    const reason = REJECTION_REASONS[body.reasonCode]
    return {
      patch: { reason_code: body.reasonCode, operator_note: body.note ?? null, proof_image_id: proofImageId ?? null, settled_payout: 0 },
      note: body.note ? `${reason}. ${body.note}` : reason,
      notification: {
        title: 'Order rejected',
        content: `Your ${brand} order ${o.order_no} was rejected: ${reason}.${body.note ? ` ${body.note}` : ''} Open the order for the details.`,
      },
      after: async () => orders.settleCards(trx, o.id, 'nothing'),
    }
  }).catch((err: unknown) => {
    // Two rejections raced with one proof photo: the unique index kept it on the first order.
    if (proofImageId && isUniqueViolation(err)) throw refuse(Refusals.PROOF_NOT_OPERATORS)
    throw err
  })
  return toAdminOrder(deps, row)
}
