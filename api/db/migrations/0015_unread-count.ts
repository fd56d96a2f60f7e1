import { sql, type Kysely } from 'kysely'

/**
 * Every signed-in page's /v1/user/index counts the person's unread notifications. An index of
 * the unread ones only answers that count from the few rows it holds, not by reading every
 * notification the person ever had; reading one removes it from the index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .column('user_id')
    .where(sql.ref('read_at'), 'is', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_unread_idx').execute()
}
