import express, { Router } from 'express'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { receiveWebhook } from '../services/payouts'

/** A provider's webhook is at most a few kilobytes; more is refused before it is read. */
const WEBHOOK_LIMIT = '64kb'

/**
 * `POST /v1/webhooks/paystack`: outside the contract (tests/api/contract.test.ts says why). It
 * speaks the provider's wire format, not our envelope: its authenticity is an HMAC of the exact
 * bytes, so the body is read raw, before the JSON parser (api/app.ts). The web forwards it unchanged.
 */
export function webhooksRoutes(deps: ApiDeps) {
  const router = Router()
  router.post('/v1/webhooks/paystack', express.raw({ type: () => true, limit: WEBHOOK_LIMIT }), (req, res, next) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    const signature = req.get('x-paystack-signature')
    receiveWebhook(deps, body, signature).then(
      (r) =>
        r.status === 401
          ? sendEnvelope(res, 401, { code: 401, msg: 'Invalid signature', data: null })
          : sendEnvelope(res, 200, { code: 200, msg: 'success', data: null }),
      next,
    )
  })
  return router
}
