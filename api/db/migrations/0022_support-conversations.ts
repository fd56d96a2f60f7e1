import type { Kysely } from 'kysely'

/**
 * Support conversations (decision 049): a seller writes to staff in the app when no chat provider
 * is configured, optionally about one of their orders; staff answer from the console's Support desk.
 * `last_message_at` and `status` carry the desk's order (open first, the longest waiting first)
 * without reading the messages.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('support_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_message_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('support_conversations_user_idx')
    .on('support_conversations')
    .columns(['user_id', 'last_message_at'])
    .execute()
  await db.schema.createIndex('support_conversations_desk_idx').on('support_conversations').columns(['status', 'last_message_at']).execute()
  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('support_messages_conversation_idx')
    .on('support_messages')
    .columns(['conversation_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_messages').execute()
  await db.schema.dropTable('support_conversations').execute()
}
