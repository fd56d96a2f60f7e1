import type { AppLoadContext } from '@remix-run/node'
import { analyticsApi as api, AnalyticsEvent, analyticsStorageKey, type AnalyticsEventBody } from '#contract/analytics'
import { getToken } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { callApi } from './call-api.server'
import { createUpstream } from './client.server'

/**
 * Analytics events stored through the api (contract/analytics.ts). Failures are only logged,
 * never shown (SPEC §1, §8). Nothing is sent for a browser that asks not to be tracked.
 */

export { analyticsStorageKey }

/**
 * Do Not Track (`DNT: 1`) or Global Privacy Control (`Sec-GPC: 1`) on the request: the person asked
 * not to be tracked, so nothing about this request is recorded, whatever the page's script did.
 */
export function trackingRefused(request: Request): boolean {
  return request.headers.get('dnt')?.trim() === '1' || request.headers.get('sec-gpc')?.trim() === '1'
}

/** Analytics waits for the api at most this long: a beacon must never hold a web connection for a minute. */
const ANALYTICS_TIMEOUT_MS = 5_000
const analyticsUpstream = createUpstream({ timeoutMs: ANALYTICS_TIMEOUT_MS })

/**
 * One event from the browser's collector, forwarded with the person's token (the api takes the
 * user from it) and address. Throws what the api or the network threw: the caller logs it.
 */
export async function forwardEvent(request: Request, context: AppLoadContext, event: AnalyticsEventBody): Promise<{ recorded: boolean }> {
  const token = await getToken(request)
  const timeoutMs = Math.min(ANALYTICS_TIMEOUT_MS, getWebEnv().UPSTREAM_TIMEOUT_MS)
  const upstream = timeoutMs === ANALYTICS_TIMEOUT_MS ? analyticsUpstream : createUpstream({ timeoutMs })
  const envelope = await upstream.call(api.event, event, { token, clientIp: context.clientAddress })
  return envelope.data
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
 * per person whoever sends it. Answers the Set-Cookie to add to the page, or null. Not sent for a
 * browser with Do Not Track or Global Privacy Control.
 */
export async function recordFirstSuccessfulOrder(
  request: Request,
  context: AppLoadContext,
  user: { userId: string; email: string },
): Promise<string | null> {
  const key = analyticsStorageKey(user.userId)
  if (trackingRefused(request) || hasCookie(request, key)) return null
  try {
    await callApi(request, context, api.event, {
      name: AnalyticsEvent.FIRST_SUCCESSFUL_ORDER,
      timestamp: Date.now(),
      ...deviceOf(request),
    })
  } catch (error) {
    // Never the person's problem; tried again on their next success page.
    logger.warn(
      {
        event: AnalyticsEvent.FIRST_SUCCESSFUL_ORDER,
        err: error instanceof Error ? error.message : String(error),
        requestId: context.requestId,
      },
      'analytics event not stored',
    )
    return null
  }
  const secure = getWebEnv().cookieSecure ? '; Secure' : ''
  return `${key}=1; Path=/order/submit-success; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}`
}
