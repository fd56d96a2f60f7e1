/**
 * Analytics events (SPEC §3 "Analytics event", §4, §5). The web's collector
 * (app/utils/analytics.client.ts) sends page views and the key events through the web's /analytics
 * route; the api stores them. Auth is optional: a visitor's page views count too; the person comes
 * from the token only, never from the body. Events named in ONCE_PER_USER are stored once per
 * person whoever reports them: the api records `first_successful_order` itself when a person's
 * first order completes, so the web reporting it too changes nothing. The body's schema is in
 * analytics.ts: the browser's collector needs the names, not the validation library.
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
