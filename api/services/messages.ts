import type { Selectable } from 'kysely'
import type { Page, PageQuery } from '#contract/envelope'
import type { Message, ReadMessageBody, ReadMessageData } from '#contract/messages'
import { Refusals } from '#contract/refusals'
import type { MessagesTable, User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { countUnread, findOwnMessage, markAllRead, markRead, pageMessages } from '../models/messages'

/**
 * The person's messages (the Notifications screen). They are written elsewhere, with what they
 * tell about (models/messages.ts addMessage); here they are only listed and marked read. Only
 * ever the person's own: another person's id is answered as an unknown one.
 */

export function toMessage(row: Selectable<MessagesTable>): Message {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    kind: row.kind,
    refId: row.ref_id,
    read: row.read_at !== null,
    // bigint columns arrive as strings from PostgreSQL.
    createdAt: Number(row.created_at),
  }
}

export async function messagePage(deps: ApiDeps, user: User, page: PageQuery): Promise<Page<Message>> {
  const { rows, total } = await pageMessages(deps.db, user.id, page.pageNum, page.pageSize)
  return { list: rows.map(toMessage), total, pageNum: page.pageNum, pageSize: page.pageSize }
}

/**
 * Marks one message read (answering it, so the caller can go to what it is about) or all of
 * them. Each is one guarded UPDATE (`read_at IS NULL`), so a repeat, or two at once, change
 * nothing more and answer the same.
 */
export async function readMessage(deps: ApiDeps, user: User, body: ReadMessageBody): Promise<ReadMessageData> {
  const now = deps.now()
  if (body.id === undefined) {
    await markAllRead(deps.db, user.id, now)
    return { message: null, unreadCount: await countUnread(deps.db, user.id) }
  }
  const row = await findOwnMessage(deps.db, user.id, body.id)
  if (!row) throw refuse(Refusals.MESSAGE_NOT_FOUND)
  if (row.read_at === null) await markRead(deps.db, user.id, row.id, now)
  return { message: { ...toMessage(row), read: true }, unreadCount: await countUnread(deps.db, user.id) }
}
