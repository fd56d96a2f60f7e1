import { z } from 'zod'
import { notificationIdField } from '#contract/notifications'

// The Notifications screen's form, on the server only: the screen itself loads no zod.
export const notificationActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('open'), id: notificationIdField }),
  z.object({ intent: z.literal('all') }),
])
