import type { Writable } from 'node:stream'
import zlib from 'node:zlib'
import { createReadableStreamFromReadable, createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { BodyTooLargeError, bodyLimitFor, declaredTooLarge, limitStream, readBodyWithin } from './body-limit.server'
import { noStoreNeeded } from './cache-control.server'

/**
 * Express → Remix, as @remix-run/express does it, with three differences that are ours to own:
 * - the body: read within the route's byte limit (body-limit.server.ts) before Remix sees it, so
 *   a chunked body without Content-Length cannot grow the process;
 * - Cache-Control: no-store on every response for a signed-in browser or that sets a cookie;
 * - the send: gzip in one call for a page that arrives at once, streaming only when the body
 *   pauses (see send); the `compression` middleware with its stream per response and flush per
 *   chunk stays for static files only.
 */
export type RemixHandlerOptions = {
  build: ServerBuild
  getLoadContext?: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext
  /** Answers a refused body (413) or a request that cannot be a URL (400). */
  refuse: (res: ExpressResponse, status: 400 | 413) => void
}

export function remixHandler({ build, getLoadContext, refuse }: RemixHandlerOptions) {
  const handleRequest = createRequestHandler(build, build.mode)
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const url = requestUrl(req)
      if (!url) return refuse(res, 400)
      const limit = bodyLimitFor(url.pathname)
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      if (hasBody && declaredTooLarge(req, limit)) return refuse(res, 413)
      let body: BodyInit | undefined
      if (hasBody) {
        if (limit.streamed) {
          body = createReadableStreamFromReadable(limitStream(req, limit.maxBytes))
        } else {
          try {
            body = await readBodyWithin(req, limit.maxBytes)
          } catch (error) {
            if (error instanceof BodyTooLargeError) return refuse(res, 413)
            // The client went away mid-body: nobody is left to answer.
            res.destroy()
            return
          }
        }
      }

      const controller = new AbortController()
      let finished = false
      res.on('finish', () => (finished = true))
      res.on('close', () => finished || controller.abort())
      const request = new Request(url, {
        method: req.method,
        headers: requestHeaders(req),
        body,
        signal: controller.signal,
        ...(body ? { duplex: 'half' } : {}),
      } as RequestInit)

      let response = await handleRequest(request, getLoadContext?.(req, res))
      if (noStoreNeeded(request, response)) response = withHeader(response, 'Cache-Control', 'no-store')
      await send(req, res, response)
    } catch (error) {
      next(error)
    }
  }
}

/** The URL Remix sees; Express's hostname and protocol already follow TRUST_PROXY. */
function requestUrl(req: ExpressRequest): URL | null {
  const port = /:(\d+)$/.exec(req.get('host') ?? '')?.[1]
  try {
    return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
  } catch {
    return null
  }
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v)
    else if (value !== undefined) headers.set(key, value)
  }
  return headers
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value)
    return response
  } catch {
    // Immutable headers (a fetch() answer passed through): copy once.
    const copy = new Response(response.body, response)
    copy.headers.set(name, value)
    return copy
  }
}

/** Gzip, only for what Remix renders per request (documents and data); static files have their own. */
const COMPRESSIBLE = /^(text\/html|application\/json|text\/plain)\b/i
// Level 3: on our pages (6–18 kB) it takes 0.11 ms where the default 6 takes 0.19, for a body
// 3–5 % bigger (docs/performance.md, 25 Nov).
const GZIP_LEVEL = 3
const MIN_GZIP_BYTES = 1024
/** A body bigger than this streams even when it arrives at once. */
const MAX_BUFFERED_BYTES = 1024 * 1024

function wantsGzip(req: ExpressRequest, response: Response): boolean {
  if (response.status === 204 || response.status === 304) return false
  if (response.headers.has('content-encoding')) return false
  if (/\bno-transform\b/i.test(response.headers.get('cache-control') ?? '')) return false
  if (!COMPRESSIBLE.test(response.headers.get('content-type') ?? '')) return false
  return req.acceptsEncodings('gzip', 'identity') === 'gzip'
}

/**
 * A page that arrives in one burst (every page today: loaders finish before React renders) is
 * sent in one write, gzipped in one call: a zlib stream per response, its thread-pool round trips
 * and a flush per chunk cost ~6× the compression itself (docs/performance.md). When the body
 * pauses (deferred data), what came so far goes out at once and the rest streams, flushed at
 * each pause, so the shell still shows before the slow parts.
 */
async function send(req: ExpressRequest, res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  // As res.append (the Remix adapter's way) does, for a quarter of its cost: a header our
  // middleware set already gets the page's value added, Content-Type gets express's charset.
  for (const [key, value] of response.headers) {
    if (key === 'set-cookie') continue
    if (key === 'content-type' || res.hasHeader(key)) res.append(key, value)
    else res.setHeader(key, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.append('Set-Cookie', cookies)
  if (!response.body) {
    res.end()
    return
  }
  const gzip = wantsGzip(req, response)
  if (gzip) res.vary('Accept-Encoding')
  const reader = response.body.getReader()
  let buffered: Uint8Array[] = []
  let size = 0
  let out: Writable | null = null
  let zipper: zlib.Gzip | null = null

  const startStreaming = () => {
    res.removeHeader('Content-Length')
    if (gzip) {
      res.setHeader('Content-Encoding', 'gzip')
      zipper = zlib.createGzip({ level: GZIP_LEVEL })
      zipper.pipe(res)
      out = zipper
    } else {
      out = res
    }
    for (const chunk of buffered) out.write(chunk)
    buffered = []
    zipper?.flush()
  }

  try {
    for (;;) {
      // Fires only if the next chunk is not already on its way: a pause in the body.
      const pause = setImmediate(() => (out ? zipper?.flush() : startStreaming()))
      const { done, value } = await reader.read()
      clearImmediate(pause)
      if (done) break
      if (res.destroyed) return void reader.cancel().catch(() => {})
      const target = out as Writable | null
      if (target) {
        if (!target.write(value)) await new Promise((resolve) => target.once('drain', resolve).once('close', resolve))
      } else {
        buffered.push(value)
        size += value.length
        if (size > MAX_BUFFERED_BYTES) startStreaming()
      }
    }
  } catch {
    // The renderer failed mid-stream (entry.server logged it): the page cannot be finished.
    res.destroy()
    return
  }

  const target = out as Writable | null
  if (target) {
    target.end()
    return
  }
  let body = Buffer.concat(buffered, size)
  if (gzip && size >= MIN_GZIP_BYTES) {
    body = zlib.gzipSync(body, { level: GZIP_LEVEL })
    res.setHeader('Content-Encoding', 'gzip')
  }
  res.setHeader('Content-Length', body.length)
  res.end(body)
}
