import { z } from 'zod'
import { get, post } from '../endpoint'
import { conversationQuery, replyBody, supportConversationSchema, supportMessageSchema } from '../support-conversations'
import { deskAuth } from './desks'

/** The console's Support desk (decision 049), any staff role: it sees who wrote and which staff member answered. */
export const deskConversationSchema = supportConversationSchema.extend({ userId: z.string(), userEmail: z.string() })
export type DeskConversation = z.infer<typeof deskConversationSchema>
export const deskThreadSchema = deskConversationSchema.extend({
  messages: z.array(supportMessageSchema.extend({ staffEmail: z.string().nullable() })),
})
export type DeskThread = z.infer<typeof deskThreadSchema>

export const supportDeskApi = {
  list: get('/admin/support/conversations', deskAuth('support'), z.object({}), z.object({ list: z.array(deskConversationSchema) })),
  thread: get('/admin/support/conversation', deskAuth('support'), conversationQuery, deskThreadSchema),
  reply: post('/admin/support/reply', deskAuth('support'), replyBody, deskThreadSchema),
  close: post('/admin/support/close', deskAuth('support'), conversationQuery.strict(), deskThreadSchema),
}
