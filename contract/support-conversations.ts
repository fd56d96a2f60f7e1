import { z } from 'zod'
import { get, post } from './endpoint'
import { SUPPORT_BODY_MAX, SUPPORT_SUBJECT_MAX } from './support-limits'

/**
 * Support conversations (decision 049): where no chat provider is configured, a seller writes to
 * staff in the app, optionally about one of their orders, and follows the answers there; staff
 * answer from the console's Support desk (any staff role, contract/ops/support.ts). A staff reply is a notification of kind
 * 'support' naming the conversation.
 */

export const SupportStatus = { OPEN: 'open', ANSWERED: 'answered', CLOSED: 'closed' } as const
export type SupportStatus = (typeof SupportStatus)[keyof typeof SupportStatus]

const idField = z
  .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
  .trim()
  .min(1, 'id is required')
  .max(64, 'id is not a conversation id')
  .regex(/^[A-Za-z0-9_-]+$/, 'id is not a conversation id')

export const supportBodyField = z
  .string({ required_error: 'Write your message', invalid_type_error: 'Write your message' })
  .trim()
  .min(1, 'Write your message')
  .max(SUPPORT_BODY_MAX, `Keep the message under ${SUPPORT_BODY_MAX} characters`)

export const supportSubjectField = z
  .string({ invalid_type_error: 'The subject must be text' })
  .trim()
  .max(SUPPORT_SUBJECT_MAX, `Keep the subject under ${SUPPORT_SUBJECT_MAX} characters`)

export const supportMessageSchema = z.object({
  id: z.string(),
  author: z.enum(['seller', 'staff']),
  body: z.string(),
  createdAt: z.number().int(),
})

export const supportConversationSchema = z.object({
  id: z.string(),
  subject: z.string(),
  /** The order it is about (its id and number), when started from one. */
  orderId: z.string().nullable(),
  orderNo: z.string().nullable(),
  status: z.enum(['open', 'answered', 'closed']),
  createdAt: z.number().int(),
  lastMessageAt: z.number().int(),
})
export type SupportConversation = z.infer<typeof supportConversationSchema>

export const supportThreadSchema = supportConversationSchema.extend({ messages: z.array(supportMessageSchema) })
export type SupportThread = z.infer<typeof supportThreadSchema>

export const startConversationBody = z
  .object({ subject: supportSubjectField.optional(), orderId: idField.optional(), body: supportBodyField })
  .strict()
export const replyBody = z.object({ id: idField, body: supportBodyField }).strict()
export const conversationQuery = z.object({ id: idField })

export const supportConversationsApi = {
  list: get('/v1/support/conversations', 'user', z.object({}), z.object({ list: z.array(supportConversationSchema) })),
  thread: get('/v1/support/conversation', 'user', conversationQuery, supportThreadSchema),
  start: post('/v1/support/conversation/start', 'user', startConversationBody, supportThreadSchema),
  reply: post('/v1/support/conversation/reply', 'user', replyBody, supportThreadSchema),
}
