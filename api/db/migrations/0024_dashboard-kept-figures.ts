import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Two figures the console's dashboard read by scanning are kept as they change (decision 050).
 *
 * An order keeps when a reviewer first decided it (`decided_at`, written by `addOrderEvent` with
 * the event), indexed: the week's reviews are a range of one index, not a lookup of each order's
 * timeline.
 *
 * Each wallet keeps the sums of its own entries (`entries_amount`, `entries_frozen`), kept by the
 * database itself: a trigger on `balance_logs` adds an entry when it is written and takes it away
 * when it is changed or removed, whoever writes it. So "the balances equal the sums of the entries"
 * is a comparison of two columns a wallet, and the dashboard no longer sums every entry per page;
 * `npm run ops -- books` still sums them all and also checks these totals (decision 050).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('decided_at', 'bigint').execute()
  await sql`
    UPDATE orders SET decided_at = (
      SELECT min(at) FROM order_events e
      WHERE e.order_id = orders.id AND e.actor = 'operator' AND e.status IN ('completed', 'proposed', 'rejected')
    )
  `.execute(db)
  await db.schema.createIndex('orders_decided_idx').on('orders').column('decided_at').execute()

  await db.schema
    .alterTable('wallets')
    .addColumn('entries_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('wallets')
    .addColumn('entries_frozen', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    UPDATE wallets SET
      entries_amount = coalesce((SELECT sum(amount) FROM balance_logs b WHERE b.user_id = wallets.user_id), 0),
      entries_frozen = coalesce((SELECT sum(frozen_change) FROM balance_logs b WHERE b.user_id = wallets.user_id), 0)
  `.execute(db)

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      CREATE FUNCTION wallet_entry_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE wallets SET entries_amount = entries_amount - OLD.amount, entries_frozen = entries_frozen - OLD.frozen_change
          WHERE user_id = OLD.user_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          UPDATE wallets SET entries_amount = entries_amount + NEW.amount, entries_frozen = entries_frozen + NEW.frozen_change
          WHERE user_id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$
    `.execute(db)
    await sql`
      CREATE TRIGGER balance_logs_entry_totals AFTER INSERT OR UPDATE OR DELETE ON balance_logs
      FOR EACH ROW EXECUTE FUNCTION wallet_entry_totals()
    `.execute(db)
    return
  }
  const add = (row: 'NEW' | 'OLD', sign: '+' | '-') =>
    sql.raw(
      `UPDATE wallets SET entries_amount = entries_amount ${sign} ${row}.amount, entries_frozen = entries_frozen ${sign} ${row}.frozen_change WHERE user_id = ${row}.user_id;`,
    )
  await sql`CREATE TRIGGER balance_logs_totals_insert AFTER INSERT ON balance_logs BEGIN ${add('NEW', '+')} END`.execute(db)
  await sql`CREATE TRIGGER balance_logs_totals_update AFTER UPDATE ON balance_logs BEGIN ${add('OLD', '-')} ${add('NEW', '+')} END`.execute(
    db,
  )
  await sql`CREATE TRIGGER balance_logs_totals_delete AFTER DELETE ON balance_logs BEGIN ${add('OLD', '-')} END`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`DROP TRIGGER balance_logs_entry_totals ON balance_logs`.execute(db)
    await sql`DROP FUNCTION wallet_entry_totals()`.execute(db)
  } else {
    for (const name of ['balance_logs_totals_insert', 'balance_logs_totals_update', 'balance_logs_totals_delete'])
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(db)
  }
  await db.schema.alterTable('wallets').dropColumn('entries_frozen').execute()
  await db.schema.alterTable('wallets').dropColumn('entries_amount').execute()
  await db.schema.dropIndex('orders_decided_idx').execute()
  await db.schema.alterTable('orders').dropColumn('decided_at').execute()
}
