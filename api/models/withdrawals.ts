import type { Db } from '../db/connect'
import type { WithdrawalEventRow, WithdrawalRow } from '../db/schema'
import { newId } from '../lib/tokens'

export const findOwnWithdrawal = (db: Db, userId: string, id: string): Promise<WithdrawalRow | undefined> =>
  db.selectFrom('withdrawals').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()

export const findByRequestId = (db: Db, userId: string, requestId: string): Promise<WithdrawalRow | undefined> =>
  db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).where('request_id', '=', requestId).executeTakeFirst()

/** What left the wallet today (since `since`) in withdrawals that have not failed. */
export async function withdrawnSince(db: Db, userId: string, since: number): Promise<number> {
  const r = await db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow()
  return Number(r.total)
}

export async function insertWithdrawal(db: Db, row: WithdrawalRow): Promise<void> {
  await db.insertInto('withdrawals').values(row).execute()
}

/** Moves the status only from `from`: false when another move won the race. */
export async function moveWithdrawal(
  db: Db,
  id: string,
  from: string,
  patch: { status: string; reference?: string | null; reason?: string | null },
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('withdrawals')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function addWithdrawalEvent(db: Db, withdrawalId: string, status: string, note: string | null, at: number): Promise<void> {
  await db.insertInto('withdrawal_events').values({ id: newId(), withdrawal_id: withdrawalId, status, note, at }).execute()
}

export const withdrawalEvents = (db: Db, ids: string[]): Promise<WithdrawalEventRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('withdrawal_events').selectAll().where('withdrawal_id', 'in', ids).orderBy('at').orderBy('id').execute()

export async function pageWithdrawals(
  db: Db,
  filter: { userId?: string; status?: string; oldestFirst?: boolean },
  pageNum: number,
  pageSize: number,
) {
  let q = db.selectFrom('withdrawals')
  if (filter.userId) q = q.where('user_id', '=', filter.userId)
  if (filter.status) q = q.where('status', '=', filter.status)
  const order = filter.oldestFirst ? 'asc' : 'desc'
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', order)
      .orderBy('id', order)
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
