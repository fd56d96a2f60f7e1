import { brotliCompressSync, deflateSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import compression from 'compression'
import type { Request, Response } from 'express'
import Negotiator from 'negotiator'

/**
 * Brotli for what is compressed per request (documents, data). Brotli's default window is large,
 * and its encoder holds a multiple of it in native memory for each large page while it is sent; a
 * document is far smaller than this window, which compresses it the same with a fraction of the
 * memory. Quality 2 instead of the middleware's 4: a page is compressed on every request, and 4
 * cost about twice the CPU for a few hundred bytes less (docs/performance.md).
 */
export const DOCUMENT_BROTLI = { [zlibConstants.BROTLI_PARAM_LGWIN]: 18, [zlibConstants.BROTLI_PARAM_QUALITY]: 2 }

// The `compression` middleware's own choices, so a body sent whole is encoded as it would have
// encoded it: the same encodings in the same preference, the same threshold, the same filter.
const SUPPORTED = ['br', 'gzip', 'deflate', 'identity']
const PREFERRED = ['br', 'gzip']
const THRESHOLD = 1024
// negotiator's types predate its second argument: the server's preference among equals.
type Negotiate = { encoding(available: string[], preferred: string[]): string | undefined }
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/

/**
 * A body the server holds whole (a page, rendered to its end: decision 033) compressed in one call
 * of zlib, decision 070. The `compression` middleware would make a compression stream for it: an
 * encoder whose memory waits for the garbage collector, a Transform and a hop to libuv's thread
 * pool and back, which cost a page several times what encoding it does. A body that comes in pieces
 * (a resource route's stream) still goes through the middleware, which sees the encoding set here
 * and leaves a whole one alone.
 *
 * Answers the bytes to send, with Content-Encoding and Vary set when they are compressed.
 */
export function compressWhole(req: Request, res: Response, body: Uint8Array): Uint8Array {
  if (body.length < THRESHOLD || req.method === 'HEAD') return body
  if ((res.getHeader('Content-Encoding') ?? 'identity') !== 'identity') return body
  if (!compression.filter(req, res)) return body
  const cacheControl = res.getHeader('Cache-Control')
  if (typeof cacheControl === 'string' && NO_TRANSFORM.test(cacheControl)) return body
  res.vary('Accept-Encoding')
  const encoding = (new Negotiator(req) as unknown as Negotiate).encoding(SUPPORTED, PREFERRED)
  if (!encoding || encoding === 'identity') return body
  const encoded =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { ...DOCUMENT_BROTLI, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : encoding === 'gzip'
        ? gzipSync(body)
        : deflateSync(body)
  res.setHeader('Content-Encoding', encoding)
  return encoded
}
