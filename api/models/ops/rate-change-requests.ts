import type { Db } from '../../db/connect'
import type { RateChangeRequestRow } from '../../db/schema'

/** Rate changes waiting for a second admin (decision 041); what every checked request shares is in checked-requests.ts. */

export async function insertRateChangeRequest(db: Db, row: RateChangeRequestRow): Promise<void> {
  await db.insertInto('rate_change_requests').values(row).execute()
}
