import type { Selectable } from 'kysely'
import type { Page, PageQuery } from '#contract/envelope'
import type { Notification, ReadNotificationBody, ReadNotificationData } from '#contract/notifications'
import { Refusals } from '#contract/refusals'
import type { NotificationsTable, User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { countUnread, findOwnNotification, markAllRead, markRead, pageNotifications } from '../models/notifications'

/**
 * The person's notifications. They are written elsewhere, with what they tell about
 * (models/notifications.ts addNotification); here they are only listed and marked read. Only ever
 * the person's own: another person's id is answered as an unknown one.
 */

export function toNotification(row: Selectable<NotificationsTable>): Notification {
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

export async function notificationPage(deps: ApiDeps, user: User, page: PageQuery): Promise<Page<Notification>> {
  const { rows, total } = await pageNotifications(deps.db, user.id, page.pageNum, page.pageSize)
  return { list: rows.map(toNotification), total, pageNum: page.pageNum, pageSize: page.pageSize }
}

/**
 * Marks one notification read (answering it, so the caller can go to what it is about) or all of
 * them. Each is one guarded UPDATE (`read_at IS NULL`), so a repeat, or two at once, change
 * nothing more and answer the same.
 */
export async function readNotification(deps: ApiDeps, user: User, body: ReadNotificationBody): Promise<ReadNotificationData> {
  const now = deps.now()
  if (body.id === undefined) {
    await markAllRead(deps.db, user.id, now)
    return { notification: null, unreadCount: await countUnread(deps.db, user.id) }
  }
  const row = await findOwnNotification(deps.db, user.id, body.id)
  if (!row) throw refuse(Refusals.NOTIFICATION_NOT_FOUND)
  if (row.read_at === null) await markRead(deps.db, user.id, row.id, now)
  return { notification: { ...toNotification(row), read: true }, unreadCount: await countUnread(deps.db, user.id) }
}
