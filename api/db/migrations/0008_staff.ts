import type { Kysely } from 'kysely'

/**
 * Staff (contract/staff.ts): their own table, never customers; their sessions (idle and absolute
 * expiry, stored as SHA-256 like customer tokens); one-time tokens for the sign-in challenge and
 * the set-up link. Orders get the expiry of a reviewer's claim. Wallet adjustments over
 * ADJUSTMENT_APPROVAL_MIN wait in `adjustment_requests` for a second admin (maker-checker).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('totp_cipher', 'text')
    .addColumn('totp_pending_cipher', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('totp_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute()
  await db.schema.createIndex('staff_sessions_staff_id_idx').on('staff_sessions').column('staff_id').execute()

  await db.schema
    .createTable('staff_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema.createIndex('staff_tokens_staff_id_idx').on('staff_tokens').columns(['staff_id', 'purpose']).execute()

  await db.schema.alterTable('orders').addColumn('claim_expires_at', 'bigint').execute()
  await db.schema
    .createTable('adjustment_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull().unique())
    .addColumn('maker', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checker', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute()
  await db.schema.createIndex('adjustment_requests_status_idx').on('adjustment_requests').columns(['status', 'created_at']).execute()
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_idx').execute()
  await db.schema.dropTable('adjustment_requests').execute()
  await db.schema.alterTable('orders').dropColumn('claim_expires_at').execute()
  await db.schema.dropTable('staff_tokens').execute()
  await db.schema.dropTable('staff_sessions').execute()
  await db.schema.dropTable('staff').execute()
}
