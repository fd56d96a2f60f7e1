// POST /analytics (resource route, public): one event from the analytics collector's beacon
// (app/utils/analytics.client.ts), forwarded to the api (contract/analytics.ts), which takes the
// person from the session's token, never from the body. Whatever happens the answer is 204 with no
// body: analytics failures are logged, never shown (SPEC §1, §8), and never a 500. A request with
// Do Not Track or Global Privacy Control is dropped unread. The body limit is body-limit.server.ts's.
import type { ActionFunctionArgs } from '@remix-run/node'
import { analyticsEventBody } from '#contract/analytics'
import { forwardEvent, trackingRefused } from '~/upstream/analytics.server'
import { logger } from '~/utils/logger.server'

const noContent = () => new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } })

/** Nothing to read here: events arrive by POST. */
export async function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } })
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  if (trackingRefused(request)) return noContent()
  try {
    let raw: unknown
    try {
      raw = JSON.parse(await request.text())
    } catch {
      logger.warn({ reason: 'not JSON', requestId: context.requestId }, 'analytics event dropped')
      return noContent()
    }
    const parsed = analyticsEventBody.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      logger.warn(
        { reason: 'malformed', field: issue?.path.join('.'), issue: issue?.message.slice(0, 200), requestId: context.requestId },
        'analytics event dropped',
      )
      return noContent()
    }
    // The person and their e-mail are the token's (the api adds them): the body's go no further.
    const { userId: _fromToken, userEmail: _fromTokenToo, ...event } = parsed.data
    await forwardEvent(request, context, event)
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : String(error), requestId: context.requestId }, 'analytics event not stored')
  }
  return noContent()
}
