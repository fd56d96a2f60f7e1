import type { Kysely } from 'kysely'

/**
 * Analytics for the funnel (`npm run ops -- stats`): `visitor_id`, the random id a browser keeps so
 * visits count people rather than page loads (a visitor's page views have no user); and an index
 * for "whose first <event> fell in these days" (grouped by person within one event name).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analytics_events').addColumn('visitor_id', 'text').execute()
  await db.schema.createIndex('analytics_events_name_user_idx').on('analytics_events').columns(['name', 'user_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('analytics_events_name_user_idx').execute()
  await db.schema.alterTable('analytics_events').dropColumn('visitor_id').execute()
}
