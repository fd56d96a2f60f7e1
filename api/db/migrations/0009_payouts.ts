import type { Kysely } from 'kysely'

/**
 * Payouts through a provider (decision 018): the withdrawal row is its own job. `payout_next_at`
 * says when a worker should look at it (null: nothing to do, or waiting for an operator's
 * approval); `payout_lease_until` is the claim one worker holds, so a crashed worker's claim ends
 * by itself; `payout_sent_at` marks that a transfer may exist at the provider, so whoever picks the
 * row up next asks the provider by reference before sending again. Bank cards remember whether
 * the account name came from the bank and whether it is far from the profile's name.
 * One column per statement: SQLite adds one column at a time.
 */
const WITHDRAWAL_COLUMNS: [string, 'text' | 'bigint' | 'integer'][] = [
  ['payout_provider', 'text'],
  ['payout_reference', 'text'],
  ['payout_next_at', 'bigint'],
  ['payout_lease_until', 'bigint'],
  ['payout_sent_at', 'bigint'],
  ['approved_at', 'bigint'],
  ['transfer_code', 'text'],
  ['bank_session_id', 'text'],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of WITHDRAWAL_COLUMNS) await db.schema.alterTable('withdrawals').addColumn(name, type).execute()
  await db.schema
    .alterTable('withdrawals')
    .addColumn('payout_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('withdrawals_payout_reference_idx').unique().on('withdrawals').column('payout_reference').execute()
  await db.schema.createIndex('withdrawals_payout_next_idx').on('withdrawals').column('payout_next_at').execute()
  await db.schema
    .alterTable('bank_cards')
    .addColumn('name_from_bank', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('bank_cards')
    .addColumn('name_flagged', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bank_cards').dropColumn('name_flagged').execute()
  await db.schema.alterTable('bank_cards').dropColumn('name_from_bank').execute()
  await db.schema.dropIndex('withdrawals_payout_next_idx').execute()
  await db.schema.dropIndex('withdrawals_payout_reference_idx').execute()
  await db.schema.alterTable('withdrawals').dropColumn('payout_attempts').execute()
  for (const [name] of [...WITHDRAWAL_COLUMNS].reverse()) await db.schema.alterTable('withdrawals').dropColumn(name).execute()
}
