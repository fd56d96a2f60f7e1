import type { Db } from '../db/connect'

export const isAutoWithdrawing = async (db: Db, userId: string): Promise<boolean> =>
  (await db.selectFrom('auto_withdrawals').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined

/** Turns it on (again: the first moment is kept). */
export async function enableAutoWithdrawal(db: Db, userId: string, now: number): Promise<void> {
  await db
    .insertInto('auto_withdrawals')
    .values({ user_id: userId, enabled_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
}

export async function disableAutoWithdrawal(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('auto_withdrawals').where('user_id', '=', userId).execute()
}
