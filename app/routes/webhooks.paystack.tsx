// POST /webhooks/paystack (resource route, public): Paystack's webhook, the one address of ours the
// provider calls. The web stays the only public service, so it hands the exact bytes and the
// `x-paystack-signature` header to the api unchanged (the signature is an HMAC of those bytes) and
// answers with the api's status: 200 (taken, Paystack stops retrying), 401 (not authentic), or 503
// when the api cannot be reached (Paystack retries later). The body limit is
// server/body-limit.ts's. The cross-site guard lets it through because Paystack sends no Origin
// and no Sec-Fetch-Site; its authenticity is the signature, checked by the api.
import type { ActionFunctionArgs } from '@remix-run/node'
import { getWebEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'

const answer = (status: number) => new Response(null, { status, headers: { 'Cache-Control': 'no-store' } })

/** Nothing to read here: webhooks arrive by POST. */
export async function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } })
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } })
  const env = getWebEnv()
  const signature = request.headers.get('x-paystack-signature')
  try {
    const body = new Uint8Array(await request.arrayBuffer())
    const res = await fetch(`${env.API_BASE_URL.replace(/\/+$/, '')}/v1/webhooks/paystack`, {
      method: 'POST',
      headers: {
        'content-type': request.headers.get('content-type') ?? 'application/json',
        ...(signature && { 'x-paystack-signature': signature }),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(env.UPSTREAM_TIMEOUT_MS),
    })
    await res.arrayBuffer()
    if (res.status === 200 || res.status === 401 || res.status === 413) return answer(res.status)
    logger.warn({ status: res.status, requestId: context.requestId }, 'payout webhook: the api did not take it')
  } catch (error) {
    logger.warn(
      { err: error instanceof Error ? error.message : String(error), requestId: context.requestId },
      'payout webhook: the api could not be reached',
    )
  }
  return answer(503)
}
