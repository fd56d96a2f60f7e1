import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { Code, type Envelope } from '#contract/envelope'
import { formatRefusal, type Refusal, type RefusalParams } from '#contract/refusals'
import { msg } from './messages'

/**
 * A refusal the client should see: HTTP status and envelope code. Business refusals are HTTP 200
 * with a 4xxx code (DESIGN §3); 400/401/404/413/429 carry the same number in both places.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** A lockout's length in seconds, sent as Retry-After (a 429 without one is a momentary overload). */
    readonly retryAfter?: number,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Business refusal (contract/refusals.ts): HTTP 200, its own code, its sentence with its parameters. */
export const refuse = <R extends Refusal>(refusal: R, ...params: RefusalParams<R>) =>
  new ApiError(200, refusal.code, formatRefusal(refusal, ...params))

/**
 * A refusal in a sentence of the api's own, for a case its record's sentence does not say (a move
 * that one status forbids, a card of several); never the record's sentence typed again.
 */
export const refuseSaying = (refusal: Refusal, sentence: string) => new ApiError(200, refusal.code, sentence)
export const badRequest = (message: string) => new ApiError(400, Code.BAD_REQUEST, message)
export const unauthorized = () => new ApiError(401, Code.UNAUTHORIZED, msg.loginExpired)

export function sendEnvelope<T>(res: Response, status: number, body: Envelope<T>): void {
  // Rate limiters read this to tell a refused sign-in from a successful one.
  res.locals.envelopeCode = body.code
  res.status(status).json(body)
}

export const sendOk = <T>(res: Response, data: T) => sendEnvelope(res, 200, { code: Code.OK, msg: msg.ok, data })

export function sendError(res: Response, err: ApiError) {
  if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.retryAfter))))
  sendEnvelope(res, err.status, { code: err.code, msg: err.message, data: null })
}

/**
 * A route handler that returns its data (sent as a success envelope) or throws an ApiError.
 * Express 4 ignores rejected promises, so anything else is passed on to the error handler here.
 */
export function handle<T>(fn: (req: Request, res: Response) => Promise<T>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).then(
      (data) => {
        if (!res.headersSent) sendOk(res, data === undefined ? null : data)
      },
      (err: unknown) => {
        if (err instanceof ApiError) sendError(res, err)
        else next(err)
      },
    )
  }
}
