import { sql, type Kysely } from 'kysely'

/**
 * Each wallet keeps the number of its last entry (`last_seq`), raised by the ledger's guarded
 * UPDATE (decision 068): the next entry's `seq` comes back from the row the movement locked, so
 * a movement on PostgreSQL is one statement and never numbers an entry from a stale read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('wallets')
    .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    UPDATE wallets SET last_seq = coalesce((SELECT max(seq) FROM balance_logs b WHERE b.user_id = wallets.user_id), 0)
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wallets').dropColumn('last_seq').execute()
}
