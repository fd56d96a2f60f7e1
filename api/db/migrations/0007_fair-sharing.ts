import type { Kysely } from 'kysely'

/**
 * What links throw-away accounts, and what a person's own sign-ins look like:
 *
 * - `reward_bank_accounts`: the first account that earned a task reward with a bank account (a keyed
 *   digest of bank code + number) owns it; another account with the same bank account earns no
 *   reward, and the rewards it has stay in its wallet. No foreign key: a deleted account keeps the
 *   bank account spent, or deleting and signing up again would farm it afresh.
 * - `users.signup_address`: the caller's address at sign-up (an IPv6 caller by its /64), for the
 *   operators' view of accounts that share one.
 * - `sign_in_places`: where a person has signed in before (an address key, or the digest of a
 *   device id the web keeps in a cookie). A known place is served first by the hash gate and is
 *   not held back by the failed-sign-in lock a stranger can trip.
 * - A proof photo is one order's only: a unique index on `orders.proof_image_id` (NULLs repeat).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reward_bank_accounts')
    .addColumn('bank_account', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.alterTable('users').addColumn('signup_address', 'text').execute()
  await db.schema
    .createTable('sign_in_places')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_places_pk', ['user_id', 'place'])
    .execute()
  await db.schema.createIndex('orders_proof_image_uq').on('orders').column('proof_image_id').unique().execute()
  await db.schema.createIndex('bank_cards_account_idx').on('bank_cards').columns(['bank_code', 'account_number']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bank_cards_account_idx').execute()
  await db.schema.dropIndex('orders_proof_image_uq').execute()
  await db.schema.dropTable('sign_in_places').execute()
  await db.schema.alterTable('users').dropColumn('signup_address').execute()
  await db.schema.dropTable('reward_bank_accounts').execute()
}
