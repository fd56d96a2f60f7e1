import type { RequestHandler } from 'express'
import { Code } from '#contract/envelope'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'
import { placesOf } from '../lib/sign-in-place'
import { isPlaceKnownToAnyone } from '../models/sign-in-places'

/**
 * A sign-in from a place nobody signed in from before, while the hash gate would refuse a stranger
 * anyway: refused here, before the rate limits and the account are read from the database, so a
 * flood from fresh IPv6 /64s costs no query (decision 025). A momentary refusal: the catalogue's
 * "try again later", no Retry-After, never worded as a lockout. Known places go on to the gate,
 * where they are served first.
 */
export function shedStrangers(deps: ApiDeps): RequestHandler {
  return (req, res, next) => {
    if (!deps.hasher.full('stranger') || isPlaceKnownToAnyone(deps.db, placesOf(req))) return next()
    sendEnvelope(res, 429, { code: Code.TOO_MANY_REQUESTS, msg: msg.tooManyRequests, data: null })
  }
}
