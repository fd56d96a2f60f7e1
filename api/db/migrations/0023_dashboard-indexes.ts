import type { Kysely } from 'kysely'

/**
 * The console's dashboard asks about today and the last week: orders made, payouts credited,
 * withdrawals paid, reviews decided. Indexes by time let it read those days' rows only, not every
 * order, entry and event the books ever had.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('orders_created_idx').on('orders').column('created_at').execute()
  await db.schema.createIndex('balance_logs_ref_created_idx').on('balance_logs').columns(['ref_type', 'created_at']).execute()
  await db.schema.createIndex('withdrawal_events_status_at_idx').on('withdrawal_events').columns(['status', 'at']).execute()
  await db.schema.createIndex('order_events_at_idx').on('order_events').column('at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('order_events_at_idx').execute()
  await db.schema.dropIndex('withdrawal_events_status_at_idx').execute()
  await db.schema.dropIndex('balance_logs_ref_created_idx').execute()
  await db.schema.dropIndex('orders_created_idx').execute()
}
