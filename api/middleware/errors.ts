import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express'
import { Code } from '#contract/envelope'
import { isDbUnavailable } from '../db/connect'
import type { DbHealth } from '../lib/db-health'
import { ApiError, sendEnvelope, sendError } from '../lib/envelope'
import type { Logger } from '../lib/logger'
import { msg } from '../lib/messages'

/** Unknown path or method: HTTP 404 envelope (SPEC §8 shows its own text for HTTP 404). */
export function notFound(_req: Request, res: Response): void {
  sendEnvelope(res, 404, { code: Code.NOT_FOUND, msg: msg.notFound, data: null })
}

/**
 * POST bodies must be JSON. Without this, a form-encoded or text body would reach the handlers as
 * `{}` and be answered with a misleading "email is required".
 */
export function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  if (req.method !== 'GET' && req.method !== 'HEAD' && hasBody && !req.is('application/json')) {
    sendEnvelope(res, 400, { code: Code.BAD_REQUEST, msg: msg.notJson, data: null })
    return
  }
  next()
}

/** body-parser's error types, by what the client did wrong. */
const bodyErrors: Record<string, { status: number; code: number; msg: string }> = {
  'entity.too.large': { status: 413, code: Code.PAYLOAD_TOO_LARGE, msg: msg.bodyTooLarge },
  'entity.parse.failed': { status: 400, code: Code.BAD_REQUEST, msg: msg.malformedJson },
  'charset.unsupported': { status: 400, code: Code.BAD_REQUEST, msg: msg.notUtf8 },
  'encoding.unsupported': { status: 400, code: Code.BAD_REQUEST, msg: msg.notJson },
}

/** A client may try again after this many seconds when the database is away. */
const RETRY_AFTER_S = '5'

/**
 * Last stop. Bad input never answers 500 (DESIGN §4): body-parser and other client errors become
 * 400/413 envelopes. A database that cannot be reached answers 503 "Service unavailable" and is
 * logged once per outage by dbHealth, not once per request. Only the truly unexpected is logged
 * with its stack and answered "Server internal error".
 */
export function errorHandler(logger: Logger, dbHealth: DbHealth): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err)
    if (err instanceof ApiError) return sendError(res, err)

    const e = (err ?? {}) as { type?: unknown; status?: unknown; statusCode?: unknown }
    const known = typeof e.type === 'string' ? bodyErrors[e.type] : undefined
    if (known) return sendEnvelope(res, known.status, { code: known.code, msg: known.msg, data: null })

    const status = Number(e.status ?? e.statusCode)
    if (status >= 400 && status < 500) {
      // Aborted uploads, bad Content-Length, undecodable path parameters, …
      return sendEnvelope(res, 400, { code: Code.BAD_REQUEST, msg: msg.invalidRequest, data: null })
    }

    if (isDbUnavailable(err)) {
      dbHealth.failed(err)
      res.set('Retry-After', RETRY_AFTER_S)
      return sendEnvelope(res, 503, { code: Code.SERVICE_UNAVAILABLE, msg: msg.unavailable, data: null })
    }

    const log = (res.locals.log as Logger | undefined) ?? logger
    log.error({ err, method: req.method, path: req.path }, 'unexpected error')
    sendEnvelope(res, 500, { code: Code.SERVER_ERROR, msg: msg.serverError, data: null })
  }
}
