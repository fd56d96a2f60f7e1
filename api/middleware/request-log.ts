import type { NextFunction, Request, Response } from 'express'
import type { Logger } from '../lib/logger'

/**
 * One line per request: method, path without query string, status, duration. Never headers or
 * bodies, which carry tokens, passwords and codes.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint()
    // Every line written about this request carries its id (the web's, when a trusted web sent it).
    const log = logger.child({ requestId: res.locals.requestId as string })
    res.locals.log = log
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      log.info({ method: req.method, path: req.path, status: res.statusCode, code: res.locals.envelopeCode, ms: Math.round(ms) }, 'request')
    })
    next()
  }
}
