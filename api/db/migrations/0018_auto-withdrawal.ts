import type { Kysely } from 'kysely'

/**
 * Auto-withdrawal (decision 040): a row per person who opted in, with their PIN, to have each
 * order's credit sent on to their default bank account. Opting out deletes the row. No PIN is
 * kept: the PIN was checked when the row was made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auto_withdrawals')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled_at', 'bigint', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auto_withdrawals').execute()
}
