import { type AppLoadContext, type EntryContext, type HandleErrorFunction } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { renderToString } from 'react-dom/server'
import { logger } from './utils/logger.server'
import { NonceProvider } from './utils/nonce'

/**
 * The document in one piece. Every loader has finished before React renders (no route defers:
 * ESLint refuses `defer`), so streaming would send the same bytes at the same moment, and its
 * machinery (a PassThrough, a web stream, a write a chunk) cost more than React's render itself:
 * renderToString made every page 0.3–0.4 ms of CPU cheaper (docs/performance.md, decision 009).
 * A render that throws is caught by Remix, which renders the error boundary instead.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext?.cspNonce === 'string' ? loadContext.cspNonce : ''
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  )
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
  // Bytes, not a string: undici first makes a string body well-formed (a scan of the whole page),
  // then encodes it; Buffer.from does both in one native call (a lone surrogate becomes U+FFFD alike).
  return new Response(Buffer.from(`<!DOCTYPE html>${html}`), { headers: responseHeaders, status: responseStatusCode })
}

/** Server errors go to the log; a 404 or an aborted request is not an error of ours. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  logger.error({ err: error, path: new URL(request.url).pathname }, 'request failed')
}
