import type { NextFunction, Request, Response } from 'express'
import type { Logger } from '../lib/logger'

/**
 * One line per request: method, path without query string, status, duration. Never headers or
 * bodies, which carry tokens, passwords and codes.
 */
export function requestLog(logger: Logger) {
  // The line's fields are these six and none is secret: it skips the redaction pass every other
  // line goes through (REDACT_PATHS guards objects handed to the logger, not the request line).
  const lines = logger.child({}, { redact: [] })
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint()
    const requestId = res.locals.requestId as string
    // Every other line written about this request carries its id (the web's, when a trusted web
    // sent it); the child logger is made when one is written, which most calls never do.
    let log: Logger | undefined
    Object.defineProperty(res.locals, 'log', { get: () => (log ??= logger.child({ requestId })), enumerable: true, configurable: true })
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      lines.info(
        { requestId, method: req.method, path: req.path, status: res.statusCode, code: res.locals.envelopeCode, ms: Math.round(ms) },
        'request',
      )
    })
    next()
  }
}
