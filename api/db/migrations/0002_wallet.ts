import { sql, type Kysely } from 'kysely'

/**
 * The wallet: one row per person (available `balance` and `frozen` on hold, never below zero by
 * CHECK as well as by the ledger's guarded updates), the append-only balance log with one
 * idempotency key per movement, the withdrawal PIN, bank accounts, withdrawals with their
 * timeline, messages to the person, and the operators' audit log. Schema builder only, so the
 * same migration runs on SQLite and PostgreSQL. Booleans are integers 0/1 on both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallets')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`balance >= 0`),
    )
    .addColumn('frozen', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`frozen >= 0`),
    )
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('balance_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('wallets.user_id'))
    /** 1, 2, 3… per wallet: the order of entries, even within one millisecond. */
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('frozen_change', 'bigint', (c) => c.notNull())
    .addColumn('frozen_after', 'bigint', (c) => c.notNull().check(sql`frozen_after >= 0`))
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('note', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('balance_logs_user_seq_uq').on('balance_logs').columns(['user_id', 'seq']).unique().execute()

  await db.schema
    .createTable('withdrawal_pins')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('withdraw_blocked_until', 'bigint')
    /** A per-person mutex: one PIN check at a time, across api instances. */
    .addColumn('busy_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('bank_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('bank_cards_live_account_uq')
    .on('bank_cards')
    .columns(['user_id', 'bank_code', 'account_number'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute()

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('bank_card_id', 'text', (c) => c.notNull().references('bank_cards.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    /** sha256 of the request's money fields: the same key with another body is refused. */
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('reason', 'text')
    .addColumn('expected_by', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('withdrawals_request_uq', ['user_id', 'request_id'])
    .execute()
  await db.schema.createIndex('withdrawals_user_idx').on('withdrawals').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'created_at']).execute()

  await db.schema
    .createTable('withdrawal_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('withdrawal_id', 'text', (c) => c.notNull().references('withdrawals.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('withdrawal_events_idx').on('withdrawal_events').columns(['withdrawal_id', 'at']).execute()

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text')
    .addColumn('read_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('messages_user_idx').on('messages').columns(['user_id', 'created_at']).execute()

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_type', 'target_id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'audit_log',
    'messages',
    'withdrawal_events',
    'withdrawals',
    'bank_cards',
    'withdrawal_pins',
    'balance_logs',
    'wallets',
  ]) {
    await db.schema.dropTable(t).execute()
  }
}
