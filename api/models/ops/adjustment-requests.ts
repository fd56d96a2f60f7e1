import type { Db } from '../../db/connect'
import type { AdjustmentRequestRow } from '../../db/schema'

/** Adjustments waiting for a second admin (maker-checker); what every checked request shares is in checked-requests.ts. */

export async function insertAdjustmentRequest(db: Db, row: AdjustmentRequestRow): Promise<void> {
  await db.insertInto('adjustment_requests').values(row).execute()
}

export const findAdjustmentRequestByRequestId = (db: Db, requestId: string): Promise<AdjustmentRequestRow | undefined> =>
  db.selectFrom('adjustment_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst()

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
