import { randomUUID } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { bodyLimitFor } from './body-limit'
import { normalizeAddress } from './client-address'
import { loggedPath } from './log-path'

/**
 * The state of one incoming request, handed to its loaders and actions as Remix's load context
 * (its type: app/load-context.ts). Made fresh for every request and dropped with it: nothing per
 * request lives in a module or on globalThis, and no header a client sends can choose any of it.
 */
export function createLoadContext(
  fields: {
    cspNonce?: string
    clientAddress?: string
    requestId?: string
    bodyLimit?: number
    logPath?: string
    observeUpstream?: AppLoadContext['observeUpstream']
  } = {},
): AppLoadContext {
  return {
    cspNonce: fields.cspNonce ?? '',
    clientAddress: fields.clientAddress ?? '',
    requestId: fields.requestId ?? randomUUID(),
    bodyLimit: fields.bodyLimit ?? 0,
    logPath: fields.logPath ?? '',
    memo: new Map(),
    observeUpstream: fields.observeUpstream ?? (() => undefined),
  }
}

/**
 * Express → load context: the nonce in this response's CSP, the address Express decided
 * (TRUST_PROXY), the request id, and where api calls report to the process's metrics.
 */
export function loadContextOf(observeUpstream: AppLoadContext['observeUpstream']) {
  return (req: ExpressRequest, res: ExpressResponse): AppLoadContext =>
    createLoadContext({
      cspNonce: res.locals.cspNonce as string,
      clientAddress: normalizeAddress(req.ip),
      requestId: res.locals.requestId as string,
      logPath: String(loggedPath(req.path)),
      bodyLimit: bodyLimitFor(req.path).maxBytes,
      observeUpstream,
    })
}
