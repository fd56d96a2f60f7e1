import type { ExpressionBuilder } from 'kysely'
import type { Db } from '../db/connect'
import { preparedQuery } from '../db/fixed-query'
import type { Database, TaskClaimRow } from '../db/schema'

/** What the tasks are counted from: the person's real PIN, bank accounts and completed orders. */
export type TaskFacts = {
  hasPin: boolean
  /** Every bank account ever added, deleted ones included: adding one is what the task asks. */
  bankCardsAdded: number
  completedOrders: number
}

/**
 * The counts behind every task's progress, as subqueries: the tasks read them alone, the user
 * index reads them in the wallet's statement (services/profile.ts).
 */
export const taskFactCounts = (eb: ExpressionBuilder<Database, never>, userId: string) =>
  [
    eb.selectFrom('withdrawal_pins').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('pins'),
    eb.selectFrom('bank_cards').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('bankCardsAdded'),
    eb
      .selectFrom('orders')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'completed')
      .as('completedOrders'),
  ] as const

/** The facts from a row that selected `taskFactCounts` (drivers answer counts as numbers or strings). */
export const toTaskFacts = (row: { pins: unknown; bankCardsAdded: unknown; completedOrders: unknown }): TaskFacts => ({
  hasPin: Number(row.pins) > 0,
  bankCardsAdded: Number(row.bankCardsAdded),
  completedOrders: Number(row.completedOrders),
})

/** The counts behind every task's progress, in one round trip. */
export async function taskFacts(db: Db, userId: string): Promise<TaskFacts> {
  const [row] = await taskCounts(db, userId)
  return toTaskFacts(row)
}

const taskCounts = preparedQuery(1, (db, userId: string) => db.selectNoFrom((eb) => taskFactCounts(eb, userId)))

export const claimsOf: (db: Db, userId: string) => Promise<TaskClaimRow[]> = preparedQuery(1, (db, userId: string) =>
  db.selectFrom('task_claims').selectAll().where('user_id', '=', userId),
)

export const findClaim = (db: Db, userId: string, taskId: string): Promise<TaskClaimRow | undefined> =>
  db.selectFrom('task_claims').selectAll().where('user_id', '=', userId).where('task_id', '=', taskId).executeTakeFirst()

/**
 * The claim, once: false when this person's claim of this task exists already. On PostgreSQL a
 * parallel claim's uncommitted row makes this wait for it, then insert nothing.
 */
export async function insertClaim(db: Db, row: TaskClaimRow): Promise<boolean> {
  const r = await db
    .insertInto('task_claims')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'task_id']).doNothing())
    .executeTakeFirst()
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
}
