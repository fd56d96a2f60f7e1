import { analyticsApi as api, AnalyticsEvent, type AnalyticsEventBody } from '#contract/analytics'
import { callApi } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'

/**
 * Analytics events stored through the api (contract/analytics.ts). Failures are only logged,
 * never shown (SPEC §1, §8).
 */

/** SPEC §5: a user id in a storage key keeps only letters, digits and `-_.`. */
export function analyticsStorageKey(userId: string): string {
  return `cl-first-order-${userId.replace(/[^A-Za-z0-9._-]/g, '')}`
}

const clip = (value: string | null, max: number) => (value ? value.slice(0, max) : undefined)

/** What the request says about the device (SPEC §3 "Analytics event"); the rest only a browser knows. */
function deviceOf(request: Request): Pick<AnalyticsEventBody, 'userAgent' | 'platform' | 'language'> {
  const h = request.headers
  return {
    userAgent: clip(h.get('user-agent'), 512),
    platform: clip(h.get('sec-ch-ua-platform')?.replace(/"/g, '') ?? null, 64),
    language: clip(h.get('accept-language')?.split(',')[0]?.split(';')[0]?.trim() || null, 35),
  }
}

function hasCookie(request: Request, name: string): boolean {
  return (request.headers.get('cookie') ?? '').split(/;\s*/).some((pair) => pair.split('=')[0] === name)
}

/**
 * The first successful order, once per person (SPEC §4, §9): a cookie under the storage key says
 * this browser already stored it, so it is sent at most once per browser; the api stores it once
 * per person whoever sends it. Answers the Set-Cookie to add to the page, or null.
 */
export async function recordFirstSuccessfulOrder(request: Request, user: { userId: string; email: string }): Promise<string | null> {
  const key = analyticsStorageKey(user.userId)
  if (hasCookie(request, key)) return null
  try {
    await callApi(request, api.event, {
      name: AnalyticsEvent.FIRST_SUCCESSFUL_ORDER,
      timestamp: Date.now(),
      ...deviceOf(request),
      userId: user.userId,
      userEmail: user.email || undefined,
    })
  } catch (error) {
    // Never the person's problem; tried again on their next success page.
    logger.warn(
      { event: AnalyticsEvent.FIRST_SUCCESSFUL_ORDER, err: error instanceof Error ? error.message : String(error) },
      'analytics event not stored',
    )
    return null
  }
  const secure = getWebEnv().cookieSecure ? '; Secure' : ''
  return `${key}=1; Path=/order/submit-success; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}`
}
