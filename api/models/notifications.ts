import type { NotifyChannel, NotifyKind } from '#contract/notify'
import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'
import { LOCKED_KINDS, notifyKindOf } from '../services/notify/kinds'
import { addDeliveries } from './deliveries'
import { hasSubscription, preferenceOf } from './notify-settings'

/** What reaches the person beyond the app (decision 046). */
export type NotifyEvent = {
  kind: NotifyKind
  /** The push body when amounts stay off the lock screen: no amounts, codes or account numbers. */
  summary: string
  /** Only these channels (a new bank account: e-mail only); default both. */
  channels?: NotifyChannel[]
}

/**
 * A notification to the person (the Notifications screen reads them). Inside the caller's
 * transaction, with its push and e-mail deliveries as the person chose (the outbox, decision 046):
 * the move and its messages commit, or neither does.
 */
export async function addNotification(
  db: Db,
  n: { userId: string; kind: string; title: string; content: string; refId?: string | null; notify?: NotifyEvent },
  now: number,
): Promise<void> {
  const id = newId()
  await db
    .insertInto('notifications')
    .values({
      id,
      user_id: n.userId,
      kind: n.kind,
      title: n.title,
      content: n.content,
      ref_id: n.refId ?? null,
      read_at: null,
      created_at: now,
    })
    .execute()
  const kind = n.notify?.kind ?? notifyKindOf(n.kind)
  if (!kind) return
  const pref = await preferenceOf(db, n.userId, kind)
  const wanted = n.notify?.channels ?? ['push', 'email']
  const channels: NotifyChannel[] = []
  if (wanted.includes('push') && pref.push && (await hasSubscription(db, n.userId))) channels.push('push')
  if (wanted.includes('email') && (pref.email || LOCKED_KINDS.includes(kind))) channels.push('email')
  await addDeliveries(db, { userId: n.userId, notificationId: id, kind, summary: n.notify?.summary ?? n.title, channels }, now)
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** One page of the person's notifications, newest first (the id breaks ties within a millisecond, so pages never overlap). */
export async function pageNotifications(db: Db, userId: string, pageNum: number, pageSize: number) {
  const own = db.selectFrom('notifications').where('user_id', '=', userId)
  const [rows, count] = await Promise.all([
    own
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
    own.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** A notification of this person's, or undefined (someone else's id reads the same as an unknown one). */
export function findOwnNotification(db: Db, userId: string, id: string) {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
}

/** Marks one notification read; the first read keeps its time, so a repeat changes nothing. */
export async function markRead(db: Db, userId: string, id: string, now: number): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute()
}

/** Marks every unread notification of the person read. */
export async function markAllRead(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).execute()
}
