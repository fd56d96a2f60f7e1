import type { RequestHandler } from 'express'
import { accountsApi } from '#contract/accounts'
import { Code } from '#contract/envelope'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'
import { placesOf } from '../lib/sign-in-place'
import { isPlaceKnownToAnyone } from '../models/sign-in-places'

/** The public calls that hash a password a visitor typed: a flood of any of them fills the gate alike. */
const PASSWORD_HASHING_CALLS = [accountsApi.login, accountsApi.register, accountsApi.resetPassword]

/**
 * A password call from a place nobody signed in from before, while the hash gate would refuse a
 * stranger anyway: refused here, before the rate limits, the code and the account are read from
 * the database, so a flood from fresh IPv6 /64s costs no query (decision 025, 030). A momentary
 * refusal: the catalogue's "try again later", no Retry-After, never worded as a lockout. Known
 * places go on to the gate, where they are served first. Middleware, not a route: each contract
 * record stays the one route of its path.
 */
export function shedStrangers(deps: ApiDeps): RequestHandler {
  const key = (method: string, path: string) => `${method} ${path.toLowerCase().replace(/\/+$/, '')}`
  const guarded = new Set(PASSWORD_HASHING_CALLS.map((call) => key(call.method, call.path)))
  return (req, res, next) => {
    // Express routes ignore case and a trailing slash: so does the guard, or `/Auth/Login/` would pass it.
    if (!guarded.has(key(req.method, req.path))) return next()
    if (!deps.hasher.full('stranger') || isPlaceKnownToAnyone(deps.db, placesOf(req))) return next()
    sendEnvelope(res, 429, { code: Code.TOO_MANY_REQUESTS, msg: msg.tooManyRequests, data: null })
  }
}
