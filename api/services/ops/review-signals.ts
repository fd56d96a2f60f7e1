import { LARGE_SALE, NEW_ACCOUNT_DAYS, type OrderSignals } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../../deps'
import { refuse } from '../../lib/envelope'
import { bitsApart, SAME_PHOTO_BITS } from '../../lib/phash'
import * as signals from '../../models/ops/review-signals'
import { findOrder } from '../../models/orders'
import { findUserById } from '../../models/users'

const DAY = 86_400_000

/** A hash as its two 32-bit halves, parsed once per scan. */
const halves = (hex: string): [number, number] => [parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8), 16)]

/** This order's photos against every other person's card photos: the pairs within SAME_PHOTO_BITS. */
export function photoMatches(
  mine: { card_id: string; upload_id: string; phash: string | null }[],
  theirs: { id: string; phash: string | null }[],
) {
  const found: { cardId: string; imageId: string; otherImageId: string; distance: number }[] = []
  const mineHalves = mine.map((m) => halves(m.phash!))
  for (const t of theirs) {
    const [hi, lo] = halves(t.phash!)
    mine.forEach((m, i) => {
      const distance = bitsApart(hi ^ mineHalves[i][0], lo ^ mineHalves[i][1])
      if (distance <= SAME_PHOTO_BITS) found.push({ cardId: m.card_id, imageId: m.upload_id, otherImageId: t.id, distance })
    })
  }
  return found.sort((a, b) => a.distance - b.distance).slice(0, 20)
}

/** The seller's history and the signals of one order (contract orderSignalsSchema). */
export async function orderSignals(deps: ApiDeps, id: string): Promise<OrderSignals> {
  const order = await findOrder(deps.db, id)
  if (!order) throw refuse(Refusals.ORDER_NOT_FOUND)
  const now = deps.now()
  const [seller, counts, before, mine, theirs, codes, banks] = await Promise.all([
    findUserById(deps.db, order.user_id),
    signals.ordersByStatus(deps.db, order.user_id),
    signals.ordersBefore(deps.db, order.user_id, Number(order.created_at), order.id),
    signals.photoHashesOf(deps.db, order.id),
    signals.otherPhotoHashes(deps.db, order.user_id),
    signals.sameCodes(deps.db, order.id, order.user_id),
    signals.sharedBankOf(deps.db, order.user_id),
  ])
  const matches = photoMatches(mine, theirs)
  const where = new Map(
    (await signals.uploadsWhere(deps.db, [...new Set(matches.map((m) => m.otherImageId))])).map((w) => [w.upload_id, w]),
  )
  const joinedAt = Number(seller?.created_at ?? order.created_at)
  const accountAgeDays = Math.floor((now - joinedAt) / DAY)
  const shared = new Map<string, { bankCode: string; last4: string; emails: string[] }>()
  for (const b of banks) {
    const key = `${b.bank_code}:${b.account_number}`
    const entry = shared.get(key) ?? { bankCode: b.bank_code, last4: b.account_number.slice(-4), emails: [] }
    entry.emails.push(b.email)
    shared.set(key, entry)
  }
  return {
    seller: {
      userId: order.user_id,
      email: seller?.email ?? '',
      joinedAt,
      accountAgeDays,
      completed: counts.get('completed') ?? 0,
      rejected: counts.get('rejected') ?? 0,
      firstOrder: before === 0,
    },
    samePhoto: matches.map((m) => {
      const w = where.get(m.otherImageId)
      return { ...m, email: w?.email ?? '', orderId: w?.order_id ?? null, orderNo: w?.order_no ?? null }
    }),
    sameCode: codes.map((c) => ({ cardId: c.card_id, email: c.email, orderId: c.order_id, orderNo: c.order_no })),
    sharedBank: [...shared.values()],
    newAccountLargeSale: accountAgeDays < NEW_ACCOUNT_DAYS && Number(order.quoted_payout) >= LARGE_SALE,
  }
}
