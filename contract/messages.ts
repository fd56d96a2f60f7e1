import { z } from 'zod'
import { get, post } from './endpoint'
import { pageQuerySchema, pageSchema } from './envelope'

/**
 * Messages to the person (DESIGN §3 "Messages"; the Notifications screen): written by the api in
 * the same transaction as what they tell about (an order's move, a withdrawal's, an operator's
 * adjustment), read newest first, marked read one by one or all at once. The unread count is in
 * /v1/user/index (`unreadCount`).
 */

/**
 * What a message is about, with `refId` naming it: an order, a withdrawal, or the wallet (an
 * operator's adjustment, no refId). Kept open (a string) so a newer kind never breaks a client
 * that does not know it yet: such a message is shown without a link.
 */
export const MessageKind = { ORDER: 'order', WITHDRAWAL: 'withdrawal', WALLET: 'wallet' } as const
export type MessageKind = (typeof MessageKind)[keyof typeof MessageKind]

export const messageSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  kind: z.string(),
  /** The order or withdrawal the message is about; null when it is about no one thing. */
  refId: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.number().int(),
})
export type Message = z.infer<typeof messageSchema>

/** Message ids are the api's own (UUIDs); anything else never names a message, so it is bad input. */
export const messageIdField = z
  .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
  .trim()
  .min(1, 'id is required')
  .max(64, 'id is not a message id')
  .regex(/^[A-Za-z0-9_-]+$/, 'id is not a message id')

/** `{id}` marks that message read; `{all: true}` marks every message of the person read. */
export const readMessageBody = z
  .object({
    id: messageIdField.optional(),
    all: z.literal(true, { errorMap: () => ({ message: 'all must be true' }) }).optional(),
  })
  .strict()
  .refine((b) => (b.id === undefined) !== (b.all === undefined), { message: 'Send the id of one message, or all: true' })
export type ReadMessageBody = z.infer<typeof readMessageBody>

export const readMessageData = z.object({
  /** The message marked read (what it is about, to go there); null for `all`. */
  message: messageSchema.nullable(),
  /** What is still unread after this call (the badge's number). */
  unreadCount: z.number().int().nonnegative(),
})
export type ReadMessageData = z.infer<typeof readMessageData>

export const messagesApi = {
  pageMessage: get('/v1/user/pageMessage', 'user', pageQuerySchema, pageSchema(messageSchema)),
  readMessage: post('/v1/user/readMessage', 'user', readMessageBody, readMessageData),
}
