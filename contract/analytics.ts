import { z } from 'zod'
import { post } from './endpoint'

/**
 * Analytics events (SPEC §3 "Analytics event", §4). Only the storing call for now; the web's
 * collector comes with the account issue. Events named in ONCE_PER_USER are stored once per
 * person whoever reports them: the api records `first_successful_order` itself when a person's
 * first order completes, so the web reporting it too changes nothing.
 */
export const AnalyticsEvent = { FIRST_SUCCESSFUL_ORDER: 'first_successful_order' } as const
export const ONCE_PER_USER: readonly string[] = [AnalyticsEvent.FIRST_SUCCESSFUL_ORDER]

const text = (max: number) => z.string({ invalid_type_error: 'must be text' }).max(max).optional()

export const analyticsEventBody = z
  .object({
    /** snake_case, e.g. first_successful_order, page_view. */
    name: z.string({ required_error: 'name is required' }).regex(/^[a-z][a-z0-9_]{1,63}$/, 'name is snake_case, 2–64 characters'),
    /** When it happened on the device (epoch ms). */
    timestamp: z.number().int().min(0).max(8.64e15).optional(),
    userAgent: text(512),
    platform: text(64),
    screenResolution: text(32),
    language: text(35),
    timezone: text(64),
    /** Taken from the token; a value sent here is ignored. */
    userId: text(64),
    /** Not stored: the user id says who it is. */
    userEmail: text(254),
  })
  .strict()
export type AnalyticsEventBody = z.infer<typeof analyticsEventBody>

/** `recorded: false` when a once-per-user event was already stored for this person. */
export const analyticsEventData = z.object({ recorded: z.boolean() })

export const analyticsApi = {
  event: post('/v1/analytics/event', 'user', analyticsEventBody, analyticsEventData),
}
