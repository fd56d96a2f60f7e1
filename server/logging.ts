import type { RequestHandler } from 'express'
import { pino } from 'pino'
import { loggedPath } from './log-path'

/** The web process's log: one line per request it answers, never headers or bodies. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' || process.env.VITEST ? 'silent' : 'info'),
  base: { service: 'web' },
  // A set-up link's token is a password in a path: never written (server/log-path.ts).
  serializers: { path: loggedPath },
})

/** Method, path (no query string), status, time and the request id; none for static files (served before it). */
export const requestLog: RequestHandler = (req, res, next) => {
  const start = process.hrtime.bigint()
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    logger.info(
      { method: req.method, path: loggedPath(req.path), status: res.statusCode, ms: Math.round(ms), requestId: res.locals.requestId },
      'request',
    )
  })
  next()
}
