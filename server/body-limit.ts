import { Transform, type Readable } from 'node:stream'
import type { Request as ExpressRequest } from 'express'

/**
 * How many bytes of a request body the web reads, per route, counted on the bytes that arrive
 * (a chunked body has no Content-Length to trust). Forms are small and read whole before Remix
 * sees them; a route that takes files adds a row here with `streamed: true`: its body reaches
 * the route as a stream that fails past the limit, so an upload is never buffered whole.
 */
export type BodyLimit = { maxBytes: number; streamed?: boolean; timeoutMs?: number }

export const FORM_BODY_LIMIT: BodyLimit = { maxBytes: 256 * 1024 }

/** Path prefix → limit; the first match wins, everything else is a form. */
const ROUTE_LIMITS: ReadonlyArray<readonly [prefix: string, limit: BodyLimit]> = [
  // One card photo (≤ 5 MB, contract/uploads.ts) and its multipart framing: the sell page's
  // JavaScript uploads each photo on its own.
  ['/file/upload', { maxBytes: 5 * 1024 * 1024 + 64 * 1024, streamed: true }],
  // The sell form without JavaScript carries its photos: a few at a time (5 of the largest). Its
  // plain forms are still read within FORM_BODY_LIMIT by the route (multipart.server.ts).
  ['/order/sell', { maxBytes: 5 * (5 * 1024 * 1024) + 256 * 1024, streamed: true }],
  // One analytics event from the collector's beacon: a few short fields (contract/analytics.ts).
  ['/analytics', { maxBytes: 4 * 1024 }],
  // The payout provider's webhook: one transfer event (the api refuses more than 64 kB too). A
  // provider sends it whole at once; a body that trickles in is a client holding a connection open.
  ['/webhooks/paystack', { maxBytes: 64 * 1024, timeoutMs: 10_000 }],
  // An e-mail's one-click unsubscribe: `List-Unsubscribe=One-Click` and nothing more, from anyone.
  ['/unsubscribe', { maxBytes: 1024, timeoutMs: 10_000 }],
  // Edit Profile's photo (≤ 2 MB, contract/uploads.ts) with the nickname, and its JavaScript upload
  // at /edit-profile/photo. Up to 10 MB is read (and dropped past 2 MB) so that a phone photo too
  // large gets the page's own "larger than 2 MB", not a bare 413.
  ['/edit-profile', { maxBytes: 10 * 1024 * 1024 + 64 * 1024, streamed: true }],
  // The review desk's decision on an order: a rejection carries one proof photo (≤ 5 MB). Its
  // other forms are read within FORM_BODY_LIMIT by the route (multipart.server.ts).
  ['/ops/review', { maxBytes: 5 * 1024 * 1024 + 64 * 1024, streamed: true }],
]

export function bodyLimitFor(pathname: string, table = ROUTE_LIMITS): BodyLimit {
  for (const [prefix, limit] of table) if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return limit
  return FORM_BODY_LIMIT
}

export class BodyTooLargeError extends Error {
  readonly status = 413
  constructor(readonly maxBytes: number) {
    super(`request body over ${maxBytes} bytes`)
    this.name = 'BodyTooLargeError'
  }
}

/** The whole body did not arrive within its route's time (the caller answers 408 and closes the connection). */
export class BodyTimeoutError extends Error {
  readonly status = 408
  constructor(readonly timeoutMs: number) {
    super(`request body not whole within ${timeoutMs} ms`)
    this.name = 'BodyTimeoutError'
  }
}

/** Content-Length alone already says too much: refuse without reading a byte. */
export function declaredTooLarge(req: ExpressRequest, limit: BodyLimit): boolean {
  const declared = Number(req.get('content-length') ?? 0)
  return Number.isFinite(declared) && declared > limit.maxBytes
}

/**
 * Reads the whole body, at most `maxBytes`. Past the limit it stops reading and rejects with
 * BodyTooLargeError (the caller answers 413 and closes the connection); what was read is dropped.
 * With `timeoutMs`, a body not whole by then rejects with BodyTimeoutError the same way.
 */
export function readBodyWithin(req: Readable, maxBytes: number, timeoutMs?: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            cleanup()
            req.pause()
            chunks.length = 0
            reject(new BodyTimeoutError(timeoutMs))
          }, timeoutMs)
    const cleanup = () => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        cleanup()
        req.pause()
        chunks.length = 0
        reject(new BodyTooLargeError(maxBytes))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve(Buffer.concat(chunks, size))
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    // The client went away before the end: nothing to answer.
    const onClose = () => {
      cleanup()
      reject(new Error('request aborted'))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

/** For streamed routes: the body as it arrives, failing with BodyTooLargeError past `maxBytes`. */
export function limitStream(source: Readable, maxBytes: number): Readable {
  let size = 0
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length
      if (size > maxBytes) {
        source.unpipe(limiter)
        source.pause()
        callback(new BodyTooLargeError(maxBytes))
        return
      }
      callback(null, chunk)
    },
  })
  source.on('error', (error) => limiter.destroy(error))
  return source.pipe(limiter)
}
