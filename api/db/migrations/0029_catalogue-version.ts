import { PostgresAdapter, sql, type Kysely } from 'kysely'

const TABLES = ['gift_card_brands', 'gift_card_variants', 'gift_card_rates'] as const

/**
 * The catalogue's version (decision 069): one row whose number the database itself moves on every
 * write to the brands, the variants or the rates, whoever writes them (an operator through the api,
 * another api instance, a script or a test writing rows straight in). An api keeps its reading of
 * the catalogue while the number it reads beside a call's other data is the one it read it at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalogue_version')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute()
  await db.insertInto('catalogue_version').values({ id: 1, version: 1 }).execute()

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      CREATE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END
      $$
    `.execute(db)
    for (const table of TABLES)
      await sql`
        CREATE TRIGGER ${sql.id(`${table}_version`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump()
      `.execute(db)
    return
  }
  for (const table of TABLES)
    for (const event of ['insert', 'update', 'delete'])
      await sql`
        CREATE TRIGGER ${sql.id(`${table}_version_${event}`)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END
      `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of TABLES) await sql`DROP TRIGGER ${sql.id(`${table}_version`)} ON ${sql.table(table)}`.execute(db)
    await sql`DROP FUNCTION catalogue_version_bump()`.execute(db)
  } else {
    for (const table of TABLES)
      for (const event of ['insert', 'update', 'delete']) await sql`DROP TRIGGER ${sql.id(`${table}_version_${event}`)}`.execute(db)
  }
  await db.schema.dropTable('catalogue_version').execute()
}
