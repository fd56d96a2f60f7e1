import type { GetLoadContextFunction } from '@remix-run/express'
import { createReadableStreamFromReadable, createRequestHandler, type ServerBuild } from '@remix-run/node'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { BodyTimeoutError, BodyTooLargeError, bodyLimitFor, declaredTooLarge, limitStream, readBodyWithin } from './body-limit'
import { noStoreNeeded } from './cache-control'
import { pagePath } from './page-path'
import { compressWhole } from './whole-body-compression'

/**
 * Express → Remix (decision 008). @remix-run/express's handler does this in its createRemixRequest
 * and sendRemixResponse; ours follows them line for line but for what security needs:
 * - the body: read within the route's byte limit (body-limit.ts) before Remix sees it, so a chunked
 *   body without Content-Length cannot grow the process (the stock handler hands Remix `req` raw);
 * - the URL: the host and port a proxy forwarded only when TRUST_PROXY names that proxy (the stock
 *   handler takes X-Forwarded-Host's port from anyone);
 * - Cache-Control: no-store on every personal response (cache-control.ts).
 * - compression: a body held whole is compressed in one call (whole-body-compression.ts); one
 *   that streams goes through the `compression` middleware, as in the stock setup.
 */
export type RemixHandlerOptions = {
  /** The build, or (`npm run dev`) a function that loads it for each request. */
  build: ServerBuild | (() => Promise<ServerBuild>)
  /** The stock handler's own hook, awaited as it awaits it. */
  getLoadContext?: GetLoadContextFunction
  /** Answers a refused body (413, or 408 when it trickles in), or a request that cannot be a URL (400). */
  refuse: (res: ExpressResponse, status: 400 | 408 | 413) => void
}

/** The reason a request's signal gives once its answer has gone out in full. */
export const ANSWERED = new DOMException('The answer has been sent', 'AbortError')

export function remixHandler({ build, getLoadContext, refuse }: RemixHandlerOptions) {
  const handleRequest = createRequestHandler(build, typeof build === 'function' ? 'development' : build.mode)
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const url = requestUrl(req)
      if (!url) return refuse(res, 400)
      const limit = bodyLimitFor(pagePath(url.pathname))
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      if (hasBody && declaredTooLarge(req, limit)) return refuse(res, 413)
      let body: BodyInit | undefined
      if (hasBody) {
        if (limit.streamed) {
          body = createReadableStreamFromReadable(limitStream(req, limit.maxBytes))
        } else {
          try {
            body = await readBodyWithin(req, limit.maxBytes, limit.timeoutMs)
          } catch (error) {
            if (error instanceof BodyTooLargeError) return refuse(res, 413)
            if (error instanceof BodyTimeoutError) return refuse(res, 408)
            // The client went away mid-body: nobody is left to answer.
            res.destroy()
            return
          }
        }
      }

      // Abort the loaders once nobody can be answered (`close` before `finish`), as the stock handler
      // does. Once the answer has gone out the request is over, and its signal says so too (decision
      // 071): what still listens to it lets go now, not when its own timer ends. Remix's single-fetch
      // encoder keeps a timer of `streamTimeout` per request that only this abort clears, holding the
      // request's data meanwhile.
      const controller = new AbortController()
      let finished = false
      res.on('finish', () => {
        finished = true
        controller.abort(ANSWERED)
      })
      res.on('close', () => finished || controller.abort())
      const request = new Request(url, {
        method: req.method,
        headers: requestHeaders(req),
        body,
        signal: controller.signal,
        ...(body ? { duplex: 'half' } : {}),
      } as RequestInit)

      const loadContext = await getLoadContext?.(req, res)
      let response = await handleRequest(request, loadContext)
      if (noStoreNeeded(request, response)) response = withHeader(response, 'Cache-Control', 'no-store')
      await send(res, response)
    } catch (error) {
      next(error)
    }
  }
}

/** Whether Express believes this connection's forwarded headers (its `trust proxy`, set from TRUST_PROXY). */
function fromTrustedProxy(req: ExpressRequest): boolean {
  const trust = req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean
  return trust(req.socket.remoteAddress, 0)
}

/** A host as a URL may carry one: a name or address and a port, nothing else. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * The host the visitor asked for, with its port: from a proxy named in TRUST_PROXY its
 * X-Forwarded-Host (the first one, the proxy nearest the visitor), from anyone else the Host header.
 * The cross-site guard compares a form's Origin with it.
 */
export function requestHost(req: ExpressRequest): string | undefined {
  const forwarded = fromTrustedProxy(req) ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined
  const host = forwarded || req.get('host')
  return host && HOST.test(host) ? host : undefined
}

/** The URL Remix sees; Express's protocol already follows TRUST_PROXY (X-Forwarded-Proto). */
function requestUrl(req: ExpressRequest): URL | null {
  const host = requestHost(req)
  if (!host) return null
  try {
    return new URL(`${req.protocol}://${host}${req.originalUrl}`)
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

/**
 * As @remix-run/express's sendRemixResponse: every header appended, the body streamed; but what
 * the body already holds goes out as one write (decision 033). A page is rendered to its end before
 * it is answered (app/entry.server.tsx waits for onAllReady), and React hands it over in pieces of
 * a few kB: written one by one, each was a block the compression middleware compressed and flushed
 * on its own, and a socket write of its own. A body that pauses (a stream of a resource route)
 * still goes out as it comes: what has arrived is written and flushed once the stream has nothing
 * more to give before the event loop's next turn.
 */
async function send(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText
  res.status(response.status)
  for (const [key, value] of response.headers) res.append(key, value)
  if (response.body) await sendBody(res, response.body)
  else res.end()
}

const PAUSED = Symbol('paused')
const nextTurn = () => new Promise<typeof PAUSED>((resolve) => setImmediate(resolve, PAUSED))

async function sendBody(res: ExpressResponse & { flush?: () => void }, body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  let parts: Uint8Array[] = []
  let paused: Promise<typeof PAUSED> | undefined
  try {
    let next = reader.read()
    for (;;) {
      const result = paused ? await Promise.race([next, paused]) : await next
      if (result === PAUSED) {
        res.write(joined(parts))
        res.flush?.()
        parts = []
        paused = undefined
        continue
      }
      if (result.done) {
        let whole = joined(parts)
        // Whole in one turn: compressed in one call and its length known; an empty body declares
        // none, as a 204 or 304 must not.
        if (whole.length && !res.headersSent && !res.hasHeader('Content-Length')) {
          whole = compressWhole(res.req, res, whole)
          res.setHeader('Content-Length', whole.length)
        }
        res.end(whole)
        return
      }
      parts.push(result.value)
      paused ??= nextTurn()
      next = reader.read()
    }
  } catch (error) {
    res.destroy(error as Error)
    throw error
  }
}

function joined(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts)
}
