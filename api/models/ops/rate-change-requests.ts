import type { Db, DbKind } from '../../db/connect'
import type { RateChangeRequestRow } from '../../db/schema'

/** Rate changes waiting for a second admin (decision 041): every query of rate_change_requests. */

export async function insertRateChangeRequest(db: Db, row: RateChangeRequestRow): Promise<void> {
  await db.insertInto('rate_change_requests').values(row).execute()
}

/** The row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const lockRateChangeRequest = (db: Db, kind: DbKind, id: string): Promise<RateChangeRequestRow | undefined> =>
  db
    .selectFrom('rate_change_requests')
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

export const pendingRateChangeRequests = (db: Db): Promise<RateChangeRequestRow[]> =>
  db.selectFrom('rate_change_requests').selectAll().where('status', '=', 'pending').orderBy('created_at').orderBy('id').limit(200).execute()

/** Decides a pending request: false when another decision came first. */
export async function decideRateChangeRequest(
  db: Db,
  id: string,
  status: 'approved' | 'declined' | 'lapsed',
  checker: string | null,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('rate_change_requests')
    .set({ status, checker, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function lapseRateChangeRequestsOf(db: Db, maker: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable('rate_change_requests')
    .set({ status: 'lapsed', decided_at: now })
    .where('maker', '=', maker)
    .where('status', '=', 'pending')
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}
