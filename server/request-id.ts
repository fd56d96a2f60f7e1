import { randomUUID } from 'node:crypto'
import type { Request, RequestHandler } from 'express'

/** What an id we take from elsewhere may look like: a UUID or a proxy's hex or base64url id. */
const WELL_FORMED = /^[A-Za-z0-9_-]{8,64}$/

/**
 * One request, one id (shared by the web and the api: the api imports it from here). Taken from
 * X-Request-Id only when the connection comes from a proxy trusted by TRUST_PROXY (Express's own
 * `trust proxy` decision) and the id is well formed; otherwise a new one. Answered as
 * X-Request-Id and kept in `res.locals.requestId` for the log lines and the load context.
 */
export const requestIdMiddleware: RequestHandler = (req, res, next) => {
  const id = trustedId(req) ?? randomUUID()
  res.locals.requestId = id
  res.set('X-Request-Id', id)
  next()
}

function trustedId(req: Request): string | undefined {
  const sent = req.get('x-request-id')
  if (!sent || !WELL_FORMED.test(sent)) return undefined
  const trust = req.app.get('trust proxy fn') as ((address: string, hop: number) => boolean) | undefined
  const peer = req.socket.remoteAddress
  return peer && trust?.(peer, 0) ? sent : undefined
}
