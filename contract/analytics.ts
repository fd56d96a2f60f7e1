import { z } from 'zod'
import { analyticsEventNames } from './analytics-events'
import { post } from './endpoint'

export {
  AnalyticsEvent,
  analyticsEventNames,
  analyticsStorageKey,
  ONCE_PER_USER,
  PERSON_EVENTS,
  type AnalyticsEventName,
} from './analytics-events'

const text = (max: number) => z.string({ invalid_type_error: 'must be text' }).max(max).optional()

export const analyticsEventBody = z
  .object({
    name: z.enum(analyticsEventNames, { errorMap: () => ({ message: `name is one of ${analyticsEventNames.join(', ')}` }) }),
    /** When it happened on the device (epoch ms); the funnel counts by the time it was stored. */
    timestamp: z.number().int().min(0).max(8.64e15).optional(),
    userAgent: text(512),
    platform: text(64),
    screenResolution: text(32),
    language: text(35),
    timezone: text(64),
    /** The screen as the routes table names it (`/order/:id`), never a query string. */
    path: z
      .string({ invalid_type_error: 'path must be text' })
      .max(200, 'path is at most 200 characters')
      .regex(/^\/[A-Za-z0-9/_:.~%-]*$/, 'path is a path without a query, like /order/:id')
      .optional(),
    /** A random id the browser keeps (localStorage) so visits count people, not page loads. */
    visitorId: z
      .string({ invalid_type_error: 'visitorId must be text' })
      .regex(/^[A-Za-z0-9_-]{16,64}$/, 'visitorId is 16–64 letters, digits, - or _')
      .optional(),
    /** Taken from the token; a value sent here is ignored. */
    userId: text(64),
    /** Taken from the token (the person's e-mail is stored with the event); a value sent here is ignored. */
    userEmail: text(254),
  })
  .strict()
export type AnalyticsEventBody = z.infer<typeof analyticsEventBody>

/** `recorded: false` when nothing was stored: a once-per-user event again, or a person's event without one. */
export const analyticsEventData = z.object({ recorded: z.boolean() })

export const analyticsApi = {
  event: post('/v1/analytics/event', 'optional', analyticsEventBody, analyticsEventData),
}
