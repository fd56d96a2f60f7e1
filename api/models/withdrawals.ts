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
  patch: { status: string } & Partial<
    Pick<
      WithdrawalRow,
      | 'reference'
      | 'reason'
      | 'transfer_code'
      | 'bank_session_id'
      | 'payout_next_at'
      | 'payout_lease_until'
      | 'payout_unknown_since'
      | 'payout_needs_person_at'
      | 'payout_problem'
      | 'payout_fee'
    >
  >,
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

/** A person's withdrawals still on their way (pending or processing), up to `limit`. */
export function openWithdrawals(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['pending', 'processing'])
    .orderBy('created_at', 'asc')
    .limit(limit)
    .execute()
}

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

// The payout worker's queue (decision 018): the withdrawal row is the job.

/** Rows a worker may take now: due, unclaimed (or their claim ran out), not finished. */
export const duePayouts = (db: Db, now: number, limit: number): Promise<{ id: string }[]> =>
  db
    .selectFrom('withdrawals')
    .select('id')
    .where('payout_next_at', '<=', now)
    .where((eb) => eb.or([eb('payout_lease_until', 'is', null), eb('payout_lease_until', '<', now)]))
    .where('status', 'in', ['pending', 'processing'])
    .orderBy('payout_next_at')
    .limit(limit)
    .execute()

/** One conditional UPDATE: only one worker wins a row; its claim ends by itself at `until`. */
export async function claimPayout(db: Db, id: string, now: number, until: number): Promise<WithdrawalRow | undefined> {
  const r = await db
    .updateTable('withdrawals')
    .set((eb) => ({ payout_lease_until: until, payout_attempts: eb('payout_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('payout_next_at', '<=', now)
    .where((eb) => eb.or([eb('payout_lease_until', 'is', null), eb('payout_lease_until', '<', now)]))
    .where('status', 'in', ['pending', 'processing'])
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) return undefined
  return db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * Written (and committed) before the first transfer call: from then on a transfer may exist, and
 * whoever takes the row asks the provider by reference first. Only from pending under our claim.
 */
export async function markPayoutSent(db: Db, id: string, lease: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('withdrawals')
    .set({ payout_sent_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('payout_lease_until', '=', lease)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Ends our claim and says when to look again (null: nothing more for a worker). */
export async function releasePayout(db: Db, id: string, lease: number, nextAt: number | null): Promise<void> {
  await db
    .updateTable('withdrawals')
    .set({ payout_lease_until: null, payout_next_at: nextAt })
    .where('id', '=', id)
    .where('payout_lease_until', '=', lease)
    .execute()
}

export async function setTransferFacts(
  db: Db,
  id: string,
  facts: { transfer_code?: string | null; bank_session_id?: string | null; payout_state?: string | null },
) {
  await db.updateTable('withdrawals').set(facts).where('id', '=', id).execute()
}

export const findByPayoutReference = (db: Db, reference: string): Promise<WithdrawalRow | undefined> =>
  db.selectFrom('withdrawals').selectAll().where('payout_reference', '=', reference).executeTakeFirst()

/** An operator approves a payout above the line: the worker may take it now. */
export async function approvePayout(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('withdrawals')
    .set({ approved_at: now, payout_next_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('payout_provider', 'is not', null)
    .where('approved_at', 'is', null)
    .where('payout_sent_at', 'is', null)
    .where('payout_next_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Paid (or reversed) withdrawals of one provider whose payout reference falls in a day. */
export const paidBetween = (db: Db, from: number, to: number): Promise<WithdrawalRow[]> =>
  db
    .selectFrom('withdrawals')
    .selectAll()
    .where('payout_provider', 'is not', null)
    .where('payout_sent_at', '>=', from)
    .where('payout_sent_at', '<=', to)
    .execute()
