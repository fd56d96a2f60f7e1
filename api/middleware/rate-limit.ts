import type { Request, Response } from 'express'
import { rateLimit } from 'express-rate-limit'
import { Code } from '#contract/envelope'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'
import { DbRateLimitStore } from '../lib/rate-limit-store'

const FIFTEEN_MINUTES = 15 * 60_000

const tooMany = (message: string) => (_req: Request, res: Response) =>
  sendEnvelope(res, 429, { code: Code.TOO_MANY_REQUESTS, msg: message, data: null })

/**
 * Every /auth/* call per client IP. Behind the web layer, the client IP reaches us only when web
 * forwards X-Forwarded-For and TRUST_PROXY trusts that hop; otherwise all users share web's IP.
 */
export function authIpLimiter(deps: ApiDeps) {
  return rateLimit({
    windowMs: FIFTEEN_MINUTES,
    limit: deps.config.authRateLimit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'ip:auth:'),
    keyGenerator: (req) => req.ip ?? 'unknown',
    handler: tooMany(msg.tooManyRequests),
  })
}

/**
 * Failed password sign-ins per e-mail address, from any IP: stops slow guessing spread over many
 * addresses. Successful sign-ins do not count. Must run after the JSON body parser.
 */
export function loginFailLimiter(deps: ApiDeps) {
  return rateLimit({
    windowMs: FIFTEEN_MINUTES,
    limit: deps.config.loginFailLimit,
    standardHeaders: false,
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'login:fail:'),
    keyGenerator: (req) => {
      const email = (req.body as { email?: unknown } | undefined)?.email
      return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : `ip:${req.ip ?? 'unknown'}`
    },
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.locals.envelopeCode === Code.OK,
    handler: tooMany(msg.tooManyLoginFailures),
  })
}
