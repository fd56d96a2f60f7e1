import type { Kysely } from 'kysely'

/**
 * Linking Google while signed in, and profile photos (issue 9).
 * - `users.google_email`: the Google-verified e-mail of the linked Google account, shown on
 *   Account. The link itself stays `google_sub` (unique): an e-mail is never what links.
 * - `uploads.purpose`: 'card' (a card photo, a secret of its order) or 'avatar' (a profile photo,
 *   shown to its owner). An avatar is never accepted as a card photo. Existing rows are card photos.
 * Schema builder only: the same migration runs on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('google_email', 'text').execute()
  await db.schema
    .alterTable('uploads')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('card'))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('purpose').execute()
  await db.schema.alterTable('users').dropColumn('google_email').execute()
}
