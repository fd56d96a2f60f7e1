import type { Kysely } from 'kysely'

/**
 * Banks as the payout provider lists them (decision 039), refreshed daily: Paystack's codes, which
 * are what name enquiry and transfers take. A bank account keeps its transfer recipient code (one
 * call fewer a payout) and when the bank last named it. Globus Bank was saved under its CBN code
 * `103`; Paystack knows it as `00103`, so saved accounts move to that code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('banks')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('refreshed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('banks_pk', ['currency', 'code'])
    .execute()
  await db.schema.alterTable('bank_cards').addColumn('recipient_code', 'text').execute()
  await db.schema.alterTable('bank_cards').addColumn('name_checked_at', 'bigint').execute()
  await db.updateTable('bank_cards').set({ bank_code: '00103' }).where('bank_code', '=', '103').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('bank_cards').set({ bank_code: '103' }).where('bank_code', '=', '00103').execute()
  await db.schema.alterTable('bank_cards').dropColumn('name_checked_at').execute()
  await db.schema.alterTable('bank_cards').dropColumn('recipient_code').execute()
  await db.schema.dropTable('banks').execute()
}
