import type { Kysely } from 'kysely'

/**
 * Task rewards: one row per reward a person claimed. UNIQUE (user_id, task_id) is what makes a
 * claim credit once however often, and however concurrently, it is sent (the ledger's own
 * idempotency key `task:<user>:<task>` is the second lock on the same door). The amount and
 * currency are what was credited, so a later change of the reward setting does not rewrite history.
 *
 * Also an index on bank_cards.user_id: the "add a bank account" task counts every account a person
 * ever added, deleted ones too, which the partial unique index (live accounts only) cannot serve.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_claims')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('task_claims_user_task_uq', ['user_id', 'task_id'])
    .execute()
  await db.schema.createIndex('bank_cards_user_idx').on('bank_cards').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bank_cards_user_idx').execute()
  await db.schema.dropTable('task_claims').execute()
}
