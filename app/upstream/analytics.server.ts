import type { AppLoadContext } from '@remix-run/node'
import { analyticsApi as api, type AnalyticsEventBody } from '#contract/analytics'
import { getToken } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { createUpstream } from './client.server'

/**
 * Analytics events stored through the api (contract/analytics.ts). Failures are only logged,
 * never shown (SPEC §1, §8). Nothing is sent for a browser that asks not to be tracked.
 */

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
