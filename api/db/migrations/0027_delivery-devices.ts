import type { Kysely } from 'kysely'

/**
 * Which of a person's devices took a push (decision 046): a retry goes only to the devices that
 * have not, so one device failing neither loses the push nor sends it twice to the others.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_devices')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_devices_pk', ['delivery_id', 'subscription_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('delivery_devices').execute()
}
