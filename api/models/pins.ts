import type { Db } from '../db/connect'
import type { WithdrawalPinRow } from '../db/schema'

export const findPin = (db: Db, userId: string): Promise<WithdrawalPinRow | undefined> =>
  db.selectFrom('withdrawal_pins').selectAll().where('user_id', '=', userId).executeTakeFirst()

/** The first PIN; false when one exists already (a parallel request set it first). */
export async function insertPin(db: Db, userId: string, pinHash: string, now: number): Promise<boolean> {
  const r = await db
    .insertInto('withdrawal_pins')
    .values({
      user_id: userId,
      pin_hash: pinHash,
      failed_count: 0,
      locked_until: null,
      withdraw_blocked_until: null,
      busy_until: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst()
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
}

/** A new PIN after a change or a reset; a reset also makes withdrawals wait. */
export async function replacePin(db: Db, userId: string, pinHash: string, now: number, withdrawBlockedUntil?: number): Promise<void> {
  await db
    .insertInto('withdrawal_pins')
    .values({
      user_id: userId,
      pin_hash: pinHash,
      failed_count: 0,
      locked_until: null,
      withdraw_blocked_until: withdrawBlockedUntil ?? null,
      busy_until: null,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        pin_hash: pinHash,
        failed_count: 0,
        locked_until: null,
        updated_at: now,
        ...(withdrawBlockedUntil !== undefined && { withdraw_blocked_until: withdrawBlockedUntil }),
      }),
    )
    .execute()
}

export async function recordPinResult(db: Db, userId: string, fields: { failed_count: number; locked_until: number | null }, now: number) {
  await db
    .updateTable('withdrawal_pins')
    .set({ ...fields, updated_at: now })
    .where('user_id', '=', userId)
    .execute()
}

/** Takes the person's PIN mutex; false while another check holds it (until `busy_until`). */
export async function takePinMutex(db: Db, userId: string, now: number, holdMs: number): Promise<boolean> {
  const r = await db
    .updateTable('withdrawal_pins')
    .set({ busy_until: now + holdMs })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('busy_until', 'is', null), eb('busy_until', '<', now)]))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function releasePinMutex(db: Db, userId: string): Promise<void> {
  await db.updateTable('withdrawal_pins').set({ busy_until: null }).where('user_id', '=', userId).execute()
}
