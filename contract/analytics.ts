import { z } from 'zod'
import { post } from './endpoint'

/**
 * Analytics events (SPEC §3 "Analytics event", §4, §5). The web's collector
 * (app/utils/analytics.client.ts) sends page views and the key events through the web's /analytics
 * route; the api stores them. Auth is optional: a visitor's page views count too; the person comes
 * from the token only, never from the body. Events named in ONCE_PER_USER are stored once per
 * person whoever reports them: the api records `first_successful_order` itself when a person's
 * first order completes, so the web reporting it too changes nothing.
 */
export const AnalyticsEvent = {
  PAGE_VIEW: 'page_view',
  REGISTER: 'register',
  LOGIN: 'login',
  ORDER_SUBMITTED: 'order_submitted',
  WITHDRAWAL_CREATED: 'withdrawal_created',
  FIRST_SUCCESSFUL_ORDER: 'first_successful_order',
} as const
export type AnalyticsEventName = (typeof AnalyticsEvent)[keyof typeof AnalyticsEvent]
export const analyticsEventNames = Object.values(AnalyticsEvent) as [AnalyticsEventName, ...AnalyticsEventName[]]
export const ONCE_PER_USER: readonly string[] = [AnalyticsEvent.FIRST_SUCCESSFUL_ORDER]
/** Events about a person: without a signed-in person they are not stored (`recorded: false`). */
export const PERSON_EVENTS: readonly string[] = analyticsEventNames.filter((name) => name !== AnalyticsEvent.PAGE_VIEW)

/** SPEC §5: a user id in a storage key keeps only letters, digits and `-_.`. */
export function analyticsStorageKey(userId: string): string {
  return `cl-first-order-${userId.replace(/[^A-Za-z0-9._-]/g, '')}`
}

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
