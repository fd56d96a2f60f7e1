import type { Request, Response } from 'express'
import { rateLimit } from 'express-rate-limit'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../deps'
import { clientKey } from '../lib/client-address'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'
import { DbRateLimitStore } from '../lib/rate-limit-store'
import { placesOf } from '../lib/sign-in-place'
import { knownPlaceOf } from '../models/sign-in-places'

const FIFTEEN_MINUTES = 15 * 60_000

/** A lockout: says how long it lasts (Retry-After), so the web words it as a wait, not a busy moment. */
const tooMany = (message: string) => (req: Request, res: Response) => {
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
  const seconds = reset ? Math.ceil((reset.getTime() - Date.now()) / 1000) : FIFTEEN_MINUTES / 1000
  res.setHeader('Retry-After', String(Math.min(Math.max(1, seconds), FIFTEEN_MINUTES / 1000)))
  sendEnvelope(res, 429, { code: Code.TOO_MANY_REQUESTS, msg: message, data: null })
}

/**
 * Every /auth/* call per client address (an IPv6 client by its /64, lib/client-address.ts). Behind
 * the web, the visitor's address is the one the web forwards, believed only from the web servers
 * named in TRUST_PROXY; any other caller is counted at its own address, whatever it claims.
 */
export function authIpLimiter(deps: ApiDeps) {
  return rateLimit({
    windowMs: FIFTEEN_MINUTES,
    limit: deps.config.authRateLimit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'ip:auth:'),
    keyGenerator: (req) => clientKey(req.ip),
    handler: tooMany(msg.tooManyRequests),
  })
}

/**
 * Failed password sign-ins per e-mail address, from any IP: stops slow guessing spread over many
 * addresses. Only a wrong password counts: not a success, and not a sign-in that was never checked
 * (bad input, the hasher busy (429), the database away (503)), which would lock a person out for
 * retrying under load. Must run after the JSON body parser.
 *
 * The lock is the strangers': a sign-in from a device or address the account signed in from
 * before (models/sign-in-places.ts) counts under its own key, so wrong passwords typed by anyone
 * else never lock the owner out at home, and a guesser at the owner's own address still meets
 * the same limit there. Anywhere else the owner signs in by e-mail code, which this lock does
 * not touch.
 */
export function loginFailLimiter(deps: ApiDeps) {
  return rateLimit({
    windowMs: FIFTEEN_MINUTES,
    limit: deps.config.loginFailLimit,
    standardHeaders: false,
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'login:fail:'),
    keyGenerator: async (req) => {
      const email = (req.body as { email?: unknown } | undefined)?.email
      if (typeof email !== 'string') return `ip:${clientKey(req.ip)}`
      const key = email.trim().toLowerCase().slice(0, 254)
      const known = await knownPlaceOf(deps.db, key, placesOf(req))
      return known ? `${key}|${known}` : key
    },
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.locals.envelopeCode !== Refusals.BAD_CREDENTIALS.code,
    handler: tooMany(msg.tooManyLoginFailures),
  })
}

/**
 * Wrong passwords per staff e-mail, from any address (as loginFailLimiter for customers, with
 * LOGIN_FAIL_LIMIT): only STAFF_BAD_CREDENTIALS counts. Staff have no e-mail-code way in, so the
 * lock lasts one window and then lifts by itself.
 */
export function staffLoginFailLimiter(deps: ApiDeps) {
  return rateLimit({
    windowMs: FIFTEEN_MINUTES,
    limit: deps.config.loginFailLimit,
    standardHeaders: false,
    legacyHeaders: false,
    store: new DbRateLimitStore(deps.db, deps.now, 'staff:fail:'),
    keyGenerator: (req) => {
      const email = (req.body as { email?: unknown } | undefined)?.email
      if (typeof email !== 'string') return `ip:${clientKey(req.ip)}`
      return email.trim().toLowerCase().slice(0, 254)
    },
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.locals.envelopeCode !== Refusals.STAFF_BAD_CREDENTIALS.code,
    handler: tooMany(msg.tooManyStaffLoginFailures),
  })
}
