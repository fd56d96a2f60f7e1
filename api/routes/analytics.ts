import type { Request, Response } from 'express'
import { rateLimit } from 'express-rate-limit'
import { analyticsApi as api } from '#contract/analytics'
import { Code } from '#contract/envelope'
import type { ApiDeps } from '../deps'
import { clientKey } from '../lib/client-address'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'
import { DbRateLimitStore } from '../lib/rate-limit-store'
import { contractRouter } from '../lib/route'
import { storeEvent } from '../services/analytics'

/**
 * Events per client address (an IPv6 client by its /64) per 15 minutes. Anyone may send page
 * views, so a cap keeps one sender from filling the table; generous, because many phones share one
 * carrier address. Past it the event is refused with 429 and, as every analytics failure, dropped.
 */
export const ANALYTICS_EVENTS_PER_WINDOW = 1_000
const WINDOW_MS = 15 * 60_000

/** /v1/analytics/event: stores one event from the web's collector, a visitor's or a signed-in person's. */
export function analyticsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  const perAddress = rateLimit({
    windowMs: WINDOW_MS,
    limit: ANALYTICS_EVENTS_PER_WINDOW,
    standardHeaders: false,
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'ip:analytics:'),
    keyGenerator: (req) => clientKey(req.ip),
    handler: (_req: Request, res: Response) =>
      sendEnvelope(res, 429, { code: Code.TOO_MANY_REQUESTS, msg: msg.tooManyRequests, data: null }),
  })
  bind(api.event, ({ user, input }) => storeEvent(deps, user, input), perAddress)
  return router
}
