import type { Kysely } from 'kysely'

/**
 * The notifications domain says "notifications" from table to screen (decision 028): `messages`
 * had come to mean text catalogues as well. A rename keeps every row; the index is made again
 * under the new name because SQLite cannot rename an index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').renameTo('notifications').execute()
  await db.schema.dropIndex('messages_user_idx').execute()
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_user_idx').execute()
  await db.schema.alterTable('notifications').renameTo('messages').execute()
  await db.schema.createIndex('messages_user_idx').on('messages').columns(['user_id', 'created_at']).execute()
}
