import type { Kysely } from 'kysely'

/**
 * Review signals (decision 017): each card photo's perceptual hash (a 64-bit dHash as 16 hex
 * digits), so a re-photographed card is found on another account; and each card's keyed hash of
 * its e-code, kept after a cancel (the fingerprint table gives a cancelled code back), so the same
 * code on another account is found without ever storing the code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('phash', 'text').execute()
  await db.schema.createIndex('uploads_phash_idx').on('uploads').column('phash').execute()
  await db.schema.alterTable('order_cards').addColumn('code_hmac', 'text').execute()
  await db.schema.createIndex('order_cards_code_hmac_idx').on('order_cards').column('code_hmac').execute()
}
