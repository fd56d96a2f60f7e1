import type { Db, DbKind } from '../db/connect'
import type { AdjustmentRequestRow } from '../db/schema'

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
  status: 'approved' | 'declined',
  checker: string,
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
