import type { Kysely } from 'kysely'

/**
 * Payouts whose fate is unknown, contradicted or costly (decision 038). On the withdrawal: since
 * when the provider's answers leave it unknown, when it was put before a person and what is known,
 * a contradiction between two answers (money moved twice or not at all) until a person resolves
 * it, and the fee the provider charged. `payout_alerts`: the desk's banners (a float too low to
 * pay, reconciliation differences), one row a kind, gone once the cause is gone.
 * One column per statement: SQLite adds one column at a time.
 */
const WITHDRAWAL_COLUMNS: [string, 'text' | 'bigint'][] = [
  ['payout_unknown_since', 'bigint'],
  ['payout_needs_person_at', 'bigint'],
  ['payout_problem', 'text'],
  ['payout_conflict', 'text'],
  ['payout_conflict_at', 'bigint'],
  ['payout_fee', 'bigint'],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of WITHDRAWAL_COLUMNS) await db.schema.alterTable('withdrawals').addColumn(name, type).execute()
  await db.schema
    .createTable('payout_alerts')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payout_alerts').execute()
  for (const [name] of [...WITHDRAWAL_COLUMNS].reverse()) await db.schema.alterTable('withdrawals').dropColumn(name).execute()
}
