import { NotificationKind } from '#contract/notifications'
import { type DeskConversation, type DeskThread } from '#contract/ops/support'
import { Refusals } from '#contract/refusals'
import { type SupportConversation, type SupportThread } from '#contract/support-conversations'
import { SUPPORT_MESSAGES_PER_MINUTE } from '#contract/support-limits'
import type { StaffRow, User } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { audit } from '../models/audit-log'
import { addNotification } from '../models/notifications'
import { findOrder } from '../models/orders'
import { hitRateLimit } from '../models/rate-limits'
import * as support from '../models/support-conversations'

type Row = NonNullable<Awaited<ReturnType<typeof support.findOwnConversation>>>
type DeskRow = NonNullable<Awaited<ReturnType<typeof support.findDeskConversation>>>

const toConversation = (r: Row): SupportConversation => ({
  id: r.id,
  subject: r.subject,
  orderId: r.order_id,
  orderNo: r.order_no ?? null,
  status: r.status as SupportConversation['status'],
  createdAt: Number(r.created_at),
  lastMessageAt: Number(r.last_message_at),
})

const toDesk = (r: DeskRow): DeskConversation => ({ ...toConversation(r), userId: r.user_id, userEmail: r.user_email })

async function thread(deps: ApiDeps, row: Row): Promise<SupportThread> {
  const messages = await support.messagesOf(deps.db, row.id)
  return {
    ...toConversation(row),
    messages: messages.map((m) => ({ id: m.id, author: m.author as 'seller' | 'staff', body: m.body, createdAt: Number(m.created_at) })),
  }
}

async function deskThread(deps: ApiDeps, id: string): Promise<DeskThread> {
  const row = await support.findDeskConversation(deps.db, id)
  if (!row) throw refuse(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
  const messages = await support.messagesOf(deps.db, row.id)
  return {
    ...toDesk(row),
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author as 'seller' | 'staff',
      body: m.body,
      createdAt: Number(m.created_at),
      staffEmail: m.staff_email ?? null,
    })),
  }
}

/**
 * A seller's messages are counted per minute in the shared rate-limit table (every api instance sees
 * the same count): a person writing follow-ups sends a few, a script filling the desk sends many,
 * and every message is a person's time at the desk.
 */
async function countMessage(deps: ApiDeps, user: User, now: number) {
  const { hits } = await hitRateLimit(deps.db, `support-message:${user.id}`, 60_000, now)
  if (hits > SUPPORT_MESSAGES_PER_MINUTE) throw refuse(Refusals.SUPPORT_TOO_MANY_MESSAGES, { max: String(SUPPORT_MESSAGES_PER_MINUTE) })
}

/** A message's time: never before the last one, so a thread reads in the order it was written within one millisecond too. */
const after = (row: { last_message_at: number }, now: number) => Math.max(now, Number(row.last_message_at) + 1)

export async function listConversations(deps: ApiDeps, user: User): Promise<{ list: SupportConversation[] }> {
  return { list: (await support.listOwnConversations(deps.db, user.id)).map(toConversation) }
}

export async function conversationThread(deps: ApiDeps, user: User, id: string): Promise<SupportThread> {
  const row = await support.findOwnConversation(deps.db, user.id, id)
  if (!row) throw refuse(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
  return thread(deps, row)
}

/** A new conversation, about one of the person's orders when named ("Order CL-…" unless a subject is given). */
export async function startConversation(
  deps: ApiDeps,
  user: User,
  input: { subject?: string | undefined; orderId?: string | undefined; body: string },
): Promise<SupportThread> {
  const now = deps.now()
  let orderNo: string | null = null
  if (input.orderId) {
    const order = await findOrder(deps.db, input.orderId)
    if (!order || order.user_id !== user.id) throw refuse(Refusals.ORDER_NOT_FOUND)
    orderNo = order.order_no
  }
  await countMessage(deps, user, now)
  const subject = input.subject || (orderNo ? `Order ${orderNo}` : 'Question')
  const id = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const created = await support.insertConversation(trx, { user_id: user.id, order_id: input.orderId ?? null, subject }, now)
    await support.addSupportMessage(trx, { conversationId: created, author: 'seller', staffId: null, body: input.body }, now)
    return created
  })
  return conversationThread(deps, user, id)
}

export async function sellerReply(deps: ApiDeps, user: User, input: { id: string; body: string }): Promise<SupportThread> {
  const now = deps.now()
  const row = await support.findOwnConversation(deps.db, user.id, input.id)
  if (!row) throw refuse(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
  if (row.status === 'closed') throw refuse(Refusals.SUPPORT_CONVERSATION_CLOSED)
  await countMessage(deps, user, now)
  await writeTransaction(deps.db, deps.dbKind, (trx) =>
    support.addSupportMessage(trx, { conversationId: row.id, author: 'seller', staffId: null, body: input.body }, after(row, now)),
  )
  return conversationThread(deps, user, row.id)
}

export async function deskList(deps: ApiDeps): Promise<{ list: DeskConversation[] }> {
  return { list: (await support.listDeskConversations(deps.db)).map(toDesk) }
}

export const deskConversation = (deps: ApiDeps, id: string) => deskThread(deps, id)

/**
 * A staff reply: the message, the audit row and the seller's notification (kind 'support', naming
 * the conversation) in one transaction, so a reply is never told twice or not at all.
 */
export async function staffReply(
  deps: ApiDeps,
  { actor, staff }: { actor: string; staff: StaffRow },
  input: { id: string; body: string },
): Promise<DeskThread> {
  const now = deps.now()
  await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const row = await support.findDeskConversation(trx, input.id)
    if (!row) throw refuse(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
    if (row.status === 'closed') throw refuse(Refusals.SUPPORT_CONVERSATION_CLOSED)
    await support.addSupportMessage(trx, { conversationId: row.id, author: 'staff', staffId: staff.id, body: input.body }, after(row, now))
    await audit(
      trx,
      {
        actor,
        action: 'support.reply',
        targetType: 'support_conversation',
        targetId: row.id,
        before: { status: row.status },
        after: { status: 'answered', length: input.body.length },
      },
      now,
    )
    await addNotification(
      trx,
      {
        userId: row.user_id,
        kind: NotificationKind.SUPPORT,
        refId: row.id,
        title: 'Support answered',
        content: `A reply about “${row.subject}”`,
      },
      now,
    )
  })
  return deskThread(deps, input.id)
}

export async function closeDeskConversation(deps: ApiDeps, actor: string, id: string): Promise<DeskThread> {
  const now = deps.now()
  await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const row = await support.findDeskConversation(trx, id)
    if (!row) throw refuse(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
    if (row.status === 'closed') return
    await support.closeConversation(trx, row.id, now)
    await audit(
      trx,
      {
        actor,
        action: 'support.close',
        targetType: 'support_conversation',
        targetId: row.id,
        before: { status: row.status },
        after: { status: 'closed' },
      },
      now,
    )
  })
  return deskThread(deps, id)
}
