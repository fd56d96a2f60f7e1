import type { Kysely } from 'kysely'

/**
 * The provider's own state word of a withdrawal's transfer, as last heard (send, poll or webhook),
 * so the payout desk shows what the provider says without asking it on every page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('withdrawals').addColumn('payout_state', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('withdrawals').dropColumn('payout_state').execute()
}
