import type { Db, DbKind } from '../../db/connect'
import type { AdjustmentRequestRow } from '../../db/schema'

/** Adjustments waiting for a second admin (maker-checker): every query of adjustment_requests. */

export async function insertAdjustmentRequest(db: Db, row: AdjustmentRequestRow): Promise<void> {
  await db.insertInto('adjustment_requests').values(row).execute()
}

export const findAdjustmentRequestByRequestId = (db: Db, requestId: string): Promise<AdjustmentRequestRow | undefined> =>
  db.selectFrom('adjustment_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst()

/** The row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const lockAdjustmentRequest = (db: Db, kind: DbKind, id: string): Promise<AdjustmentRequestRow | undefined> =>
  db
    .selectFrom('adjustment_requests')
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

export const pendingAdjustmentRequests = (db: Db): Promise<AdjustmentRequestRow[]> =>
  db.selectFrom('adjustment_requests').selectAll().where('status', '=', 'pending').orderBy('created_at').orderBy('id').limit(200).execute()

/** Decides a pending request: false when another decision came first. */
export async function decideAdjustmentRequest(
  db: Db,
  id: string,
  status: 'approved' | 'declined' | 'lapsed',
  checker: string | null,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('adjustment_requests')
    .set({ status, checker, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** One maker's adjustments of one person since `since` that count toward the approval line (not declined or lapsed). */
export const adjustmentsBy = (db: Db, maker: string, userId: string, since: number): Promise<Pick<AdjustmentRequestRow, 'amount'>[]> =>
  db
    .selectFrom('adjustment_requests')
    .select('amount')
    .where('maker', '=', maker)
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .where('status', 'in', ['applied', 'pending', 'approved'])
    .execute()

/** Every waiting request of a maker lapses at once (disabled, reset or no longer admin); the ids that lapsed. */
export async function lapseAdjustmentRequestsOf(db: Db, maker: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('adjustment_requests')
    .set({ status: 'lapsed', decided_at: now })
    .where('maker', '=', maker)
    .where('status', '=', 'pending')
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}
