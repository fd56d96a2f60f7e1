import type { Db, DbKind } from '../../db/connect'
import type { AdjustmentRequestRow, RateChangeRequestRow } from '../../db/schema'

/**
 * What waits for a second admin (maker-checker, decision 041): wallet adjustments and rate
 * changes, one table each, the same life (pending → approved | declined | lapsed). The queries
 * both share; each table's own (insert, look-ups by its fields) stay in its model.
 */
export type CheckedTable = 'adjustment_requests' | 'rate_change_requests'
export type CheckedRow<T extends CheckedTable> = T extends 'adjustment_requests' ? AdjustmentRequestRow : RateChangeRequestRow

/** The row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const lockCheckedRequest = <T extends CheckedTable>(db: Db, kind: DbKind, table: T, id: string) =>
  db
    .selectFrom(table as CheckedTable)
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst() as Promise<CheckedRow<T> | undefined>

export const pendingCheckedRequests = <T extends CheckedTable>(db: Db, table: T) =>
  db
    .selectFrom(table as CheckedTable)
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .limit(200)
    .execute() as Promise<CheckedRow<T>[]>

/** Decides a pending request: false when another decision came first. */
export async function decideCheckedRequest(
  db: Db,
  table: CheckedTable,
  id: string,
  status: 'approved' | 'declined' | 'lapsed',
  checker: string | null,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable(table)
    .set({ status, checker, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Every waiting request of a maker lapses at once (disabled, reset or no longer admin); the ids that lapsed. */
export async function lapseCheckedRequestsOf(db: Db, table: CheckedTable, maker: string, now: number): Promise<string[]> {
  const rows = await db
    .updateTable(table)
    .set({ status: 'lapsed', decided_at: now })
    .where('maker', '=', maker)
    .where('status', '=', 'pending')
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}
