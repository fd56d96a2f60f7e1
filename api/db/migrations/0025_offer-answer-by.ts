import { sql, type Kysely } from 'kysely'

/**
 * A lower offer has a deadline (decision 051): the person answers by `proposal_answer_by`, or the
 * offer lapses and the order closes as declined. Offers already waiting get the default window
 * from when they were made; the index lets the lapse worker read only the offers that are due.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('proposal_answer_by', 'bigint').execute()
  await sql`update orders set proposal_answer_by = proposed_at + ${48 * 3_600_000} where status = 'proposed' and proposed_at is not null`.execute(
    db,
  )
  await db.schema.createIndex('orders_status_answer_by_idx').on('orders').columns(['status', 'proposal_answer_by']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_status_answer_by_idx').execute()
  await db.schema.alterTable('orders').dropColumn('proposal_answer_by').execute()
}
