import type { Db } from '../../db/connect'

/** The dashboard's queries: counts and sums in the database; only the week's reviews come back as rows. */

export const OPEN_ORDER_STATUSES = ['pending', 'reviewing'] as const
export const OPEN_WITHDRAWAL_STATUSES = ['pending', 'processing'] as const
/** A reviewer's first decision on an order (an order lowered and then accepted was decided when lowered). */
const DECISIONS = ['completed', 'proposed', 'rejected'] as const

export async function waitingOrders(db: Db, now: number) {
  const row = await db
    .selectFrom('orders')
    .where('status', 'in', OPEN_ORDER_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('waiting'),
      eb.fn.min<number>('created_at').as('oldestAt'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb(eb('created_at', '+', eb('eta_minutes', '*', 60_000)), '<', now))
            .then(1)
            .else(0)
            .end(),
        )
        .as('late'),
    ])
    .executeTakeFirstOrThrow()
  return { waiting: Number(row.waiting), late: Number(row.late ?? 0), oldestAt: row.oldestAt === null ? null : Number(row.oldestAt) }
}

export async function waitingWithdrawals(db: Db, now: number) {
  const row = await db
    .selectFrom('withdrawals')
    .where('status', 'in', OPEN_WITHDRAWAL_STATUSES)
    .select((eb) => [
      eb.fn.countAll<number>().as('waiting'),
      eb.fn.min<number>('created_at').as('oldestAt'),
      eb.fn.sum<number>(eb.case().when('expected_by', '<', now).then(1).else(0).end()).as('late'),
    ])
    .executeTakeFirstOrThrow()
  return { waiting: Number(row.waiting), late: Number(row.late ?? 0), oldestAt: row.oldestAt === null ? null : Number(row.oldestAt) }
}

/** Each order a reviewer decided since `since`: when it was made, first decided, and its ETA. */
export async function decisionsSince(db: Db, since: number) {
  const rows = await db
    .selectFrom('order_events')
    .innerJoin('orders', 'orders.id', 'order_events.order_id')
    .where('order_events.actor', '=', 'operator')
    .where('order_events.status', 'in', DECISIONS)
    // Only orders with a decision since then can have their first one since then: the week's
    // events by time (an index), not every decision ever made.
    .where('orders.id', 'in', (eb) =>
      eb
        .selectFrom('order_events')
        .select('order_id')
        .where('actor', '=', 'operator')
        .where('status', 'in', DECISIONS)
        .where('at', '>=', since),
    )
    .groupBy(['orders.id', 'orders.created_at', 'orders.eta_minutes'])
    .having((eb) => eb.fn.min('order_events.at'), '>=', since)
    .select((eb) => [
      'orders.created_at as createdAt',
      'orders.eta_minutes as etaMinutes',
      eb.fn.min<number>('order_events.at').as('decidedAt'),
    ])
    .execute()
  return rows.map((r) => ({ createdAt: Number(r.createdAt), etaMinutes: Number(r.etaMinutes), decidedAt: Number(r.decidedAt) }))
}

/** Orders made in [from, to), and the payouts credited for orders completed then. */
export async function ordersBetween(db: Db, from: number, to: number) {
  const [made, credited] = await Promise.all([
    db
      .selectFrom('orders')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('balance_logs')
      .where('ref_type', '=', 'order')
      .where('amount', '>', 0)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('sum'))
      .executeTakeFirstOrThrow(),
  ])
  return { orders: Number(made.n), credited: Number(credited.sum) }
}

/**
 * Withdrawals that became paid (success) in [from, to) and are still paid, and what their banks
 * received: the amount less the fee (the fee never leaves us).
 */
export async function paidOutBetween(db: Db, from: number, to: number) {
  const row = await db
    .selectFrom('withdrawals')
    .where('status', '=', 'success')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('withdrawal_events')
        .select('withdrawal_id')
        .where('status', '=', 'success')
        .where('at', '>=', from)
        .where('at', '<', to),
    )
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('fee'))), eb.lit(0)).as('sum'),
    ])
    .executeTakeFirstOrThrow()
  return { withdrawalsPaid: Number(row.n), paidOut: Number(row.sum) }
}

/**
 * The books at a glance: how many wallets, and how many differ from the sum of their entries (the
 * check `auditBooks` makes), counted in the database in one statement: the page needs two numbers,
 * not a row per wallet.
 */
export async function booksAtAGlance(db: Db) {
  const row = await db
    .selectFrom('wallets')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('balance_logs')
          .select((e) => ['user_id', e.fn.sum<number>('amount').as('sumAmount'), e.fn.sum<number>('frozen_change').as('sumFrozen')])
          .groupBy('user_id')
          .as('entries'),
      (join) => join.onRef('entries.user_id', '=', 'wallets.user_id'),
    )
    .select((eb) => [
      eb.fn.countAll<number>().as('wallets'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.or([
                eb('wallets.balance', '<>', eb.fn.coalesce('entries.sumAmount', eb.lit(0))),
                eb('wallets.frozen', '<>', eb.fn.coalesce('entries.sumFrozen', eb.lit(0))),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('mismatches'),
    ])
    .executeTakeFirstOrThrow()
  return { wallets: Number(row.wallets), mismatches: Number(row.mismatches ?? 0) }
}
