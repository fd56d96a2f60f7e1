import express, { type Express } from 'express'
import helmet from 'helmet'
import { requestIdMiddleware } from '../server/request-id'
import type { ApiDeps } from './deps'
import { withSelling } from './lib/selling-deps'
import { errorHandler, notFound, requireJsonBody } from './middleware/errors'
import { authIpLimiter } from './middleware/rate-limit'
import { requestLog } from './middleware/request-log'
import { shedStrangers } from './middleware/shed-strangers'
import { accountsRoutes } from './routes/accounts'
import { analyticsRoutes } from './routes/analytics'
import { bankCardsRoutes } from './routes/bank-cards'
import { catalogueRoutes } from './routes/catalogue'
import { healthRoutes } from './routes/health'
import { notificationsRoutes } from './routes/notifications'
import { notifyRoutes } from './routes/notify'
import { opsMoneyRoutes } from './routes/ops/money'
import { payoutDeskRoutes } from './routes/ops/payouts'
import { peopleDeskRoutes } from './routes/ops/people'
import { reviewDeskRoutes } from './routes/ops/review'
import { staffRoutes } from './routes/ops/staff'
import { supportDeskRoutes } from './routes/ops/support'
import { ordersRoutes } from './routes/orders'
import { pinRoutes } from './routes/pin'
import { profileRoutes } from './routes/profile'
import { supportRoutes } from './routes/support'
import { tasksRoutes } from './routes/tasks'
import { uploadsRoutes } from './routes/uploads'
import { walletRoutes } from './routes/wallet'
import { webhooksRoutes } from './routes/webhooks'
import { withdrawalsRoutes } from './routes/withdrawals'

/** Request bodies are small JSON objects; anything bigger is refused with 413 before parsing. */
export const BODY_LIMIT = '64kb'

/**
 * The api answers JSON, never a page: the headers OWASP's REST Security Cheat Sheet asks of an
 * api (with Cache-Control below), not the browser-page set helmet adds by default. Every header is
 * parsed by the web on every call (docs/performance.md).
 */
export const API_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
  strictTransportSecurity: true,
  xContentTypeOptions: true,
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const satisfies Parameters<typeof helmet>[0]

/**
 * The api as an Express app, with no listening or start-up work: startApi (api/server.ts) builds
 * the deps, migrates and listens.
 */
export function createApiApp(deps: ApiDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  app.set('trust proxy', deps.config.trustProxy)
  // Plain key=value queries only (GETs carry `_t` and, later, paging): no nested objects from qs.
  app.set('query parser', 'simple')

  // The web's request id (its TRUST_PROXY decides whom to believe) or a new one: in every log line, answered as X-Request-Id.
  app.use(requestIdMiddleware)
  app.use(requestLog(deps.logger))
  app.use(deps.metrics.requests)
  app.use(helmet(API_HEADERS))
  app.use((_req, res, next) => {
    // Answers carry tokens and personal data: no cache may keep them.
    res.set('Cache-Control', 'no-store')
    next()
  })

  app.use(healthRoutes(deps))
  // A password call (sign-in, register, reset) from a stranger while the hash gate is full: refused before any query.
  app.use(shedStrangers(deps))
  app.use('/auth', authIpLimiter(deps))
  // Sign-in, its code and the set-up link only: a console page's /staff/me is not a sign-in attempt.
  app.use(['/staff/login', '/staff/verify', '/staff/setup'], authIpLimiter(deps))
  const selling = withSelling(deps)
  // Photo uploads are multipart, read as a stream by their own handler: before the JSON-only rule.
  app.use(uploadsRoutes(selling))
  // A provider's webhook is signed over its exact bytes: read raw, before the JSON-only rule.
  app.use(webhooksRoutes(deps))
  app.use(requireJsonBody)
  app.use(express.json({ limit: BODY_LIMIT, strict: true }))
  app.use(accountsRoutes(deps))
  app.use(profileRoutes(deps))
  app.use(walletRoutes(deps))
  app.use(pinRoutes(deps))
  app.use(bankCardsRoutes(deps))
  app.use(withdrawalsRoutes(deps))
  app.use(opsMoneyRoutes(deps))
  app.use(catalogueRoutes(deps))
  app.use(ordersRoutes(selling))
  app.use(analyticsRoutes(deps))
  app.use(supportRoutes(deps))
  app.use(reviewDeskRoutes(selling))
  app.use(notificationsRoutes(deps))
  app.use(notifyRoutes(deps))
  app.use(tasksRoutes(deps))
  app.use(staffRoutes(selling))
  app.use(payoutDeskRoutes(deps))
  app.use(peopleDeskRoutes(deps))
  app.use(supportDeskRoutes(deps))

  app.use(notFound)
  app.use(errorHandler(deps.logger, deps.dbHealth))
  return app
}
