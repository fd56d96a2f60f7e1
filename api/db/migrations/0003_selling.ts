import { sql, type Kysely } from 'kysely'
import { seedCatalogue } from './0003_selling-catalogue'

/**
 * Selling gift cards: the catalogue (brands, what is bought per country × type, every rate ever
 * set), uploaded photos, orders with their cards, photos and timeline, the fingerprints that make
 * an e-code sellable once, and analytics events. Seeds the catalogue. Schema builder only, so the
 * same migration runs on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gift_card_brands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('initials', 'text', (c) => c.notNull())
    .addColumn('background', 'text', (c) => c.notNull())
    .addColumn('foreground', 'text', (c) => c.notNull())
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('eta_minutes', 'integer', (c) => c.notNull().check(sql`eta_minutes > 0`))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('gift_card_variants')
    .addColumn('brand_id', 'text', (c) => c.notNull().references('gift_card_brands.id'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('min_face_value', 'bigint', (c) => c.notNull().check(sql`min_face_value > 0`))
    .addColumn('max_face_value', 'bigint', (c) => c.notNull())
    .addColumn('denominations', 'text')
    .addPrimaryKeyConstraint('gift_card_variants_pk', ['brand_id', 'country', 'card_type'])
    .addCheckConstraint('gift_card_variants_limits', sql`max_face_value >= min_face_value`)
    .execute()

  await db.schema
    .createTable('gift_card_rates')
    .addColumn('brand_id', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('rate_micro', 'bigint', (c) => c.notNull().check(sql`rate_micro > 0`))
    .addColumn('set_at', 'bigint', (c) => c.notNull())
    .addColumn('set_by', 'text', (c) => c.notNull())
    // One rate per variant and millisecond: setting it twice within one replaces it.
    .addPrimaryKeyConstraint('gift_card_rates_pk', ['brand_id', 'country', 'card_type', 'set_at'])
    .addForeignKeyConstraint('gift_card_rates_variant_fk', ['brand_id', 'country', 'card_type'], 'gift_card_variants', [
      'brand_id',
      'country',
      'card_type',
    ])
    .execute()

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('uploads_user_idx').on('uploads').columns(['user_id', 'created_at']).execute()

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('brand_id', 'text', (c) => c.notNull().references('gift_card_brands.id'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('quoted_rate_micro', 'bigint', (c) => c.notNull().check(sql`quoted_rate_micro > 0`))
    .addColumn('payout_currency', 'text', (c) => c.notNull())
    .addColumn('quoted_payout', 'bigint', (c) => c.notNull().check(sql`quoted_payout >= 0`))
    .addColumn('proposed_payout', 'bigint')
    .addColumn('settled_payout', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason_code', 'text')
    .addColumn('proposal_reason', 'text')
    .addColumn('proposed_at', 'bigint')
    .addColumn('operator_note', 'text')
    .addColumn('proof_image_id', 'text', (c) => c.references('uploads.id'))
    .addColumn('claimed_by', 'text')
    .addColumn('eta_minutes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('orders_request_uq', ['user_id', 'request_id'])
    .execute()
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'created_at']).execute()

  await db.schema
    .createTable('order_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('face_value', 'bigint', (c) => c.notNull().check(sql`face_value > 0`))
    .addColumn('quoted_payout', 'bigint', (c) => c.notNull())
    .addColumn('proposed_payout', 'bigint')
    .addColumn('settled_payout', 'bigint')
    .addColumn('reason_code', 'text')
    .addColumn('codes_cipher', 'text')
    .addColumn('codes_masked', 'text')
    .addUniqueConstraint('order_cards_position_uq', ['order_id', 'position'])
    .execute()

  await db.schema
    .createTable('order_card_images')
    .addColumn('order_card_id', 'text', (c) => c.notNull().references('order_cards.id'))
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_card_images_pk', ['order_card_id', 'upload_id'])
    .execute()
  await db.schema.createIndex('order_card_images_upload_idx').on('order_card_images').column('upload_id').execute()

  await db.schema
    .createTable('order_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    /** 1, 2, 3… per order: the timeline's order, even within one millisecond. */
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('order_events_seq_uq').on('order_events').columns(['order_id', 'seq']).unique().execute()

  await db.schema
    .createTable('ecode_fingerprints')
    .addColumn('code_hmac', 'text', (c) => c.primaryKey())
    .addColumn('order_card_id', 'text', (c) => c.notNull().references('order_cards.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('once_key', 'text', (c) => c.unique())
    .addColumn('context_json', 'text')
    .addColumn('occurred_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('analytics_events_name_idx').on('analytics_events').columns(['name', 'created_at']).execute()

  await seedCatalogue(db, Date.now())
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'analytics_events',
    'ecode_fingerprints',
    'order_events',
    'order_card_images',
    'order_cards',
    'orders',
    'uploads',
    'gift_card_rates',
    'gift_card_variants',
    'gift_card_brands',
  ]) {
    await db.schema.dropTable(t).execute()
  }
}
