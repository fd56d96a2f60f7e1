import type { Db } from '../db/connect'
import type { EmailCode } from '../db/schema'
import { newId } from '../lib/tokens'

/**
 * Stores a new code for e-mail+type and voids the older ones of the same pair, in one transaction,
 * so only the newest code mailed can ever work.
 */
export async function replaceCode(
  db: Db,
  fields: { email: string; type: number; codeHash: string; lifetimeMs: number },
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('email_codes')
      .set({ used_at: now })
      .where('email', '=', fields.email)
      .where('type', '=', fields.type)
      .where('used_at', 'is', null)
      .execute()
    await trx
      .insertInto('email_codes')
      .values({
        id: newId(),
        email: fields.email,
        type: fields.type,
        code_hash: fields.codeHash,
        created_at: now,
        expires_at: now + fields.lifetimeMs,
        attempts: 0,
        used_at: null,
      })
      .execute()
  })
}

/** The one code of e-mail+type that can still work: unused, unexpired, tries left. */
export function findLiveCode(db: Db, email: string, type: number, now: number, maxAttempts: number) {
  return db
    .selectFrom('email_codes')
    .selectAll()
    .where('email', '=', email)
    .where('type', '=', type)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<EmailCode | undefined>
}

/**
 * Takes one try before the (slow) comparison, atomically, so parallel guesses cannot all slip in
 * under the limit. False when the code is used up or burnt meanwhile.
 */
export async function takeAttempt(db: Db, id: string, maxAttempts: number): Promise<boolean> {
  const r = await db
    .updateTable('email_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** A right answer to a check that does not consume the code gives its try back. */
export async function giveBackAttempt(db: Db, id: string): Promise<void> {
  await db
    .updateTable('email_codes')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('id', '=', id)
    .where('attempts', '>', 0)
    .execute()
}

/** Consumes the code; false if another request consumed it first. */
export async function markCodeUsed(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('email_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function deleteOldCodes(db: Db, before: number): Promise<void> {
  await db.deleteFrom('email_codes').where('expires_at', '<', before).execute()
}
