import type { Db } from '../db/connect'

/** How long each withdrawal paid since `since` took from request to paid (ms), one number each. */
export async function paidDurationsSince(db: Db, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('withdrawal_events')
    .innerJoin('withdrawals', 'withdrawals.id', 'withdrawal_events.withdrawal_id')
    .where('withdrawal_events.status', '=', 'success')
    .where('withdrawal_events.at', '>=', since)
    .select(['withdrawals.created_at as createdAt', 'withdrawal_events.at as paidAt'])
    .execute()
  return rows.map((r) => Number(r.paidAt) - Number(r.createdAt))
}
