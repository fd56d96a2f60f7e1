import type { Kysely } from 'kysely'

/**
 * The notification outbox (decision 046): one row per notification and channel (push, email),
 * written by addNotification in the transaction of what it tells about, so a rolled-back move
 * sends nothing and a committed one cannot lose its message. The delivery worker claims a due row
 * with a lease before sending and marks it sent after; the unique pair keeps it to one row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('notification_id', 'text', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    /** What a lock screen may show when the person keeps amounts off it. */
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('deliveries_notification_channel_uq', ['notification_id', 'channel'])
    .execute()
  await db.schema.createIndex('deliveries_due_idx').on('deliveries').columns(['status', 'next_attempt_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deliveries').execute()
}
