import { sql, type Kysely } from 'kysely'

/**
 * Maker-checker that needs two people (decision 041). Staff: who was handed the newest set-up
 * link (the inviter, or the last admin who reset them), who made them admin, when they set up,
 * and which other admin confirmed them; an admin approves nothing until confirmed. Every wallet
 * adjustment gets a row (`applied` when under the line) so one admin's adjustments to one person
 * add up. Rate changes far from the rate in force wait in `rate_change_requests`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff').addColumn('setup_by', 'text').execute()
  await db.schema.alterTable('staff').addColumn('promoted_by', 'text').execute()
  await db.schema.alterTable('staff').addColumn('activated_at', 'bigint').execute()
  await db.schema.alterTable('staff').addColumn('confirmed_by', 'text').execute()
  await db.schema.alterTable('staff').addColumn('confirmed_at', 'bigint').execute()
  await db
    .updateTable('staff')
    .set({ setup_by: sql.ref('created_by') })
    .execute()
  await db
    .updateTable('staff')
    .set({ activated_at: sql.ref('updated_at') })
    .where('status', '=', 'active')
    .execute()
  // Admins already at work were trusted before; they are the ones who confirm the next.
  await db
    .updateTable('staff')
    .set({ confirmed_by: 'migration', confirmed_at: sql.ref('updated_at') })
    .where('status', '=', 'active')
    .where('role', '=', 'admin')
    .execute()

  await db.schema
    .createIndex('adjustment_requests_maker_idx')
    .on('adjustment_requests')
    .columns(['maker', 'user_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('rate_change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand_id', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('rate_micro', 'bigint', (c) => c.notNull())
    .addColumn('before_micro', 'bigint', (c) => c.notNull())
    .addColumn('maker', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checker', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute()
  await db.schema.createIndex('rate_change_requests_status_idx').on('rate_change_requests').columns(['status', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_change_requests').execute()
  await db.schema.dropIndex('adjustment_requests_maker_idx').execute()
  for (const c of ['confirmed_at', 'confirmed_by', 'activated_at', 'promoted_by', 'setup_by']) {
    await db.schema.alterTable('staff').dropColumn(c).execute()
  }
}
