import { z } from 'zod'
import { get, post } from './endpoint'
import { pageQuerySchema, pageSchema } from './envelope'

/**
 * Notifications to the person (DESIGN §3 "Messages"; the Notifications screen): written by the api
 * in the same transaction as what they tell about (an order's move, a withdrawal's, an operator's
 * adjustment), read newest first, marked read one by one or all at once. The unread count is in
 * /v1/user/index (`unreadCount`). The calls keep the names SPEC gives their paths (pageMessage,
 * readMessage); everything else says notification.
 */

export { NotificationKind } from './notification-kinds'

export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  kind: z.string(),
  /** The order or withdrawal the notification is about; null when it is about no one thing. */
  refId: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.number().int(),
})
export type Notification = z.infer<typeof notificationSchema>

/** Notification ids are the api's own (UUIDs); anything else never names one, so it is bad input. */
export const notificationIdField = z
  .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
  .trim()
  .min(1, 'id is required')
  .max(64, 'id is not a notification id')
  .regex(/^[A-Za-z0-9_-]+$/, 'id is not a notification id')

/** `{id}` marks that notification read; `{all: true}` marks every notification of the person read. */
export const readNotificationBody = z
  .object({
    id: notificationIdField.optional(),
    all: z.literal(true, { errorMap: () => ({ message: 'all must be true' }) }).optional(),
  })
  .strict()
  .refine((b) => (b.id === undefined) !== (b.all === undefined), { message: 'Send the id of one notification, or all: true' })
export type ReadNotificationBody = z.infer<typeof readNotificationBody>

export const readNotificationData = z.object({
  /** The notification marked read (what it is about, to go there); null for `all`. */
  notification: notificationSchema.nullable(),
  /** What is still unread after this call (the badge's number). */
  unreadCount: z.number().int().nonnegative(),
})
export type ReadNotificationData = z.infer<typeof readNotificationData>

export const notificationsApi = {
  pageMessage: get('/v1/user/pageMessage', 'user', pageQuerySchema, pageSchema(notificationSchema)),
  readMessage: post('/v1/user/readMessage', 'user', readNotificationBody, readNotificationData),
}
