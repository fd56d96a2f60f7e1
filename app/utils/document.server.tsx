import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleErrorFunction } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import type { ReactNode } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import { logger } from './logger.server'
import { NonceProvider } from './nonce'
import { DocumentRequestIdProvider } from './request-id'
import { StylesheetTextProvider } from './stylesheets'

// The document renderer of both apps (app/entry.server.tsx, app/ops/entry.server.tsx): one copy of
// the CSP nonce, request id, streaming and error log. `stylesheetText` gives the text of the sheets
// a document carries inline (decision 058): the customer's; the console links its sheets, so its
// build leaves it out and carries none of the customer's stylesheets.

/** As long as a render may take before it is given up (Remix's template: a stuck render must end). */
export const streamTimeout = 5_000

/**
 * The document, as Remix's Node template renders it (renderToPipeableStream), waiting for
 * onAllReady for every client: no route defers, and the adapter's compression then sends the page
 * as one body. A render that throws before that is Remix's to catch (it renders the error boundary).
 */
export const documentHandler =
  (stylesheetText?: (href: string) => string | undefined) =>
  (request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) =>
    renderDocument(request, responseStatusCode, responseHeaders, remixContext, loadContext, stylesheetText)

function renderDocument(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
  stylesheetText: ((href: string) => string | undefined) | undefined,
) {
  const nonce = loadContext.cspNonce
  const app: ReactNode = <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    // The guard against a stuck render goes once the render has ended: left to fire, it held every
    // page's render (its tree, its data, its stream) until it did, and its abort of a finished render
    // made an error nobody reads.
    let guard: NodeJS.Timeout | undefined
    let ended = false
    const end = () => {
      ended = true
      clearTimeout(guard)
    }
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentRequestIdProvider value={loadContext.requestId}>
          {stylesheetText ? <StylesheetTextProvider value={stylesheetText}>{app}</StylesheetTextProvider> : app}
        </DocumentRequestIdProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          body.once('finish', end)
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          end()
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors in the shell are onShellError's; these are logged, as in the template.
          if (shellRendered) logger.error({ err: error, path: loadContext.logPath, requestId: loadContext.requestId }, 'render failed')
        },
      },
    )
    if (!ended) guard = setTimeout(abort, streamTimeout + 1000)
  })
}

/** Server errors go to the log; a 404 or an aborted request is not an error of ours. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  logger.error({ err: error, path: context.logPath, requestId: context.requestId }, 'request failed')
}
