import type { Db } from '../db/connect'
import type { SupportConversationsTable } from '../db/schema'
import { newId } from '../lib/tokens'

/** The longest list a seller or the desk is shown at once (the oldest waiting first on the desk). */
const LIST_MAX = 100

type ConversationRow = SupportConversationsTable

const withOrderNo = (db: Db) =>
  db.selectFrom('support_conversations as c').leftJoin('orders as o', 'o.id', 'c.order_id').selectAll('c').select('o.order_no')

/** A seller's conversations, the latest message first. */
export function listOwnConversations(db: Db, userId: string) {
  return withOrderNo(db)
    .where('c.user_id', '=', userId)
    .orderBy('c.last_message_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(LIST_MAX)
    .execute()
}

/** A conversation of this person's, or undefined (another person's id reads the same as an unknown one). */
export function findOwnConversation(db: Db, userId: string, id: string) {
  return withOrderNo(db).where('c.id', '=', id).where('c.user_id', '=', userId).executeTakeFirst()
}

/** The desk: open ones first (a seller waits), the one waiting longest first; then answered, then closed. */
export function listDeskConversations(db: Db) {
  return withOrderNo(db)
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select('u.email as user_email')
    .orderBy((eb) => eb.case().when('c.status', '=', 'open').then(0).when('c.status', '=', 'answered').then(1).else(2).end())
    .orderBy('c.last_message_at', 'asc')
    .orderBy('c.id', 'asc')
    .limit(LIST_MAX)
    .execute()
}

export function findDeskConversation(db: Db, id: string) {
  return withOrderNo(db)
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select('u.email as user_email')
    .where('c.id', '=', id)
    .executeTakeFirst()
}

export function messagesOf(db: Db, conversationId: string) {
  return db
    .selectFrom('support_messages as m')
    .leftJoin('staff as s', 's.id', 'm.staff_id')
    .selectAll('m')
    .select('s.email as staff_email')
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.created_at', 'asc')
    .orderBy('m.id', 'asc')
    .execute()
}

export async function insertConversation(
  db: Db,
  c: Pick<ConversationRow, 'user_id' | 'order_id' | 'subject'>,
  now: number,
): Promise<string> {
  const id = newId()
  await db
    .insertInto('support_conversations')
    .values({ id, ...c, status: 'open', created_at: now, updated_at: now, last_message_at: now })
    .execute()
  return id
}

/** A message, and the conversation's state after it: a seller's waits for staff (open), staff's is an answer. */
export async function addSupportMessage(
  db: Db,
  m: { conversationId: string; author: 'seller' | 'staff'; staffId: string | null; body: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('support_messages')
    .values({ id: newId(), conversation_id: m.conversationId, author: m.author, staff_id: m.staffId, body: m.body, created_at: now })
    .execute()
  await db
    .updateTable('support_conversations')
    .set({ status: m.author === 'seller' ? 'open' : 'answered', updated_at: now, last_message_at: now })
    .where('id', '=', m.conversationId)
    .execute()
}

export async function closeConversation(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('support_conversations').set({ status: 'closed', updated_at: now }).where('id', '=', id).execute()
}
