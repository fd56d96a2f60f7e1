import type { Kysely } from 'kysely'

/**
 * Who hears what, where (decision 046): a row per person and kind of event that differs from the
 * default (no row: push and e-mail on), the person's "amounts on the lock screen" switch, their
 * browsers' push subscriptions (an endpoint belongs to one browser, so it is unique). "A new
 * device signed in" needs no table: sign_in_places already knows the devices a person used.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('push', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
    .execute()
  await db.schema
    .alterTable('users')
    .addColumn('push_amounts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute()
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute()
  await db.schema.alterTable('users').dropColumn('push_amounts').execute()
  await db.schema.dropTable('notification_preferences').execute()
}
