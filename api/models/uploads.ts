import type { Db } from '../db/connect'
import type { UploadRow } from '../db/schema'

/** Stored photos (the bytes are in the storage; this is who owns them and where they are). */

export async function insertUpload(db: Db, row: UploadRow): Promise<void> {
  await db.insertInto('uploads').values(row).execute()
}

export const findUpload = (db: Db, id: string): Promise<UploadRow | undefined> =>
  db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst()

/**
 * A proof photo `orderId` may show its seller: this staff member's own upload (never a person's card
 * photo or avatar) that is no other order's proof, since it pictures that order's cards.
 */
export const findProofFor = (db: Db, id: string, orderId: string, staff: string): Promise<UploadRow | undefined> =>
  db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', 'is', null)
    .where('uploaded_by', '=', staff)
    .where('purpose', '=', 'card')
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('orders').select('orders.id').where('orders.proof_image_id', '=', id).where('orders.id', '!=', orderId)),
      ),
    )
    .executeTakeFirst()

/** The photo if this person may see it: their own, or the proof photo on one of their orders. */
export const findReadableUpload = (db: Db, userId: string, id: string): Promise<UploadRow | undefined> =>
  db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('user_id', '=', userId),
        eb.exists(eb.selectFrom('orders').select('orders.id').where('orders.proof_image_id', '=', id).where('orders.user_id', '=', userId)),
      ]),
    )
    .executeTakeFirst()

/** Which of these ids are this person's own card photos (an avatar is never a card photo). */
export async function ownUploadIds(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'card')
    .where('id', 'in', ids)
    .execute()
  return new Set(rows.map((r) => r.id))
}

export async function countUploadsSince(db: Db, userId: string, since: number): Promise<number> {
  const r = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** An avatar of this person's own (a card photo is not an avatar). */
export const findOwnAvatar = (db: Db, userId: string, id: string): Promise<UploadRow | undefined> =>
  db.selectFrom('uploads').selectAll().where('id', '=', id).where('user_id', '=', userId).where('purpose', '=', 'avatar').executeTakeFirst()
