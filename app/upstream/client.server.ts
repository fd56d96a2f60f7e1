import { isIP } from 'node:net'
import { createFetch, FetchError } from 'ofetch'
import type { DataOf, Endpoint, InputOf } from '#contract/endpoint'
import { Code, type Envelope } from '#contract/envelope'
import { getWebEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { transportMessages as M } from '~/utils/messages'
import { leanFetch } from './lean-fetch.server'

/** ofetch (base URL, query, JSON bodies) over undici's request() instead of fetch (lean-fetch.server.ts). */
const ofetch = createFetch({ fetch: leanFetch, Headers, AbortController })

/**
 * The one client for the upstream api (SPEC §7): base URL, the spec's timeout, JSON,
 * headers `token` (when logged in) and `clientType: h5`, `_t` on every GET.
 * Success (body code 200) hands back the whole envelope; every failure becomes
 * one UpstreamError carrying the exact message of SPEC §8.
 */

export type UpstreamErrorKind =
  | 'expired' // body code 401 or HTTP 401
  | 'refused' // body code other than 200: a business answer
  | 'http' // HTTP status other than 2xx and 401
  | 'timeout'
  | 'network'
  | 'connection-refused'
  | 'unknown'

export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind
  /** HTTP status, when a response arrived. */
  readonly status?: number
  /** Envelope code, when a body arrived. */
  readonly code?: number
  /** A 429's Retry-After in seconds: how long a lockout lasts (none: a momentary overload). */
  readonly retryAfter?: number
  constructor(kind: UpstreamErrorKind, message: string, extra: { status?: number; code?: number; retryAfter?: number } = {}) {
    super(message)
    this.name = 'UpstreamError'
    this.kind = kind
    this.status = extra.status
    this.code = extra.code
    this.retryAfter = extra.retryAfter
  }
}

export type CallOptions = {
  token?: string | null
  /** A staff session's token (the operator console), sent as `Authorization: Bearer`. */
  bearer?: string | null
  query?: Record<string, string | number | boolean | undefined>
  /** The visitor's address, forwarded so the api can rate-limit per person, not per web server. */
  clientIp?: string
  /** The browser's device id (utils/device.server.ts), so the api knows the person's own devices. */
  device?: string
  /** This request's id (the load context's), sent as X-Request-Id so the api's log lines carry it too. */
  requestId?: string
  /** Told how each call ended (the load context's observeUpstream: the web's metrics). */
  observe?: (call: string, outcome: string, seconds: number) => void
  /** Shown the headers of any answer that arrived, a refusal too (the console reads who the api saw). */
  onAnswer?: (headers: Pick<Headers, 'get'>) => void
}

export type Upstream = {
  get<T = unknown>(path: string, options?: CallOptions): Promise<Envelope<T>>
  post<T = unknown>(path: string, body?: unknown, options?: CallOptions): Promise<Envelope<T>>
  /**
   * A contract record's call: its method and path, the input as its body or query, and the
   * answer's `data` parsed with its schema. An answer that does not fit the contract is the
   * catalogue's "Unknown error occurred", never a value cast to a type it does not have.
   */
  call<E extends Endpoint>(endpoint: E, input: InputOf<E>, options?: Omit<CallOptions, 'query'>): Promise<Envelope<DataOf<E>>>
}

export function createUpstream(config: { baseURL?: string; timeoutMs?: number } = {}): Upstream {
  const call = async <T>(method: 'GET' | 'POST', path: string, body: unknown, options: CallOptions = {}) => {
    const env = getWebEnv()
    const baseURL = config.baseURL ?? env.API_BASE_URL
    const timeoutMs = config.timeoutMs ?? env.UPSTREAM_TIMEOUT_MS
    const headers: Record<string, string> = { clientType: 'h5', accept: 'application/json' }
    if (options.token) headers.token = options.token
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`
    // The api believes this header from the web tier only (its TRUST_PROXY): one address, the
    // visitor's, as server.ts decided it. Anything that is not an address is not forwarded.
    if (options.clientIp && isIP(options.clientIp)) headers['x-forwarded-for'] = options.clientIp
    if (options.device) headers['x-cardlane-device'] = options.device
    if (options.requestId) headers['x-request-id'] = options.requestId
    const query = method === 'GET' ? { ...options.query, _t: Date.now() } : options.query
    // Our own signal also covers reading the body, not only the headers. A timer cleared once the
    // answer is read, not AbortSignal.timeout(): that makes a transferable signal and a weak timer
    // for every call, a tenth of a page's upstream cost (docs/performance.md).
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), timeoutMs)
    const started = performance.now()
    const observed = (outcome: string) => options.observe?.(path, outcome, (performance.now() - started) / 1000)
    let response
    try {
      response = await ofetch.raw(path, {
        baseURL,
        method,
        headers,
        query,
        body: method === 'POST' ? (body ?? {}) : undefined,
        signal: controller.signal,
        retry: 0,
        ignoreResponseError: true,
        responseType: 'text',
      })
    } catch (error) {
      const failure = fromThrown(error)
      observed(failure.kind)
      throw failure
    } finally {
      clearTimeout(timer)
    }
    options.onAnswer?.(response.headers)
    try {
      const envelope = fromResponse<T>(response.status, response._data, response.headers)
      observed('ok')
      return envelope
    } catch (error) {
      observed(error instanceof UpstreamError ? error.kind : 'unknown')
      throw error
    }
  }
  return {
    get: (path, options) => call('GET', path, undefined, options),
    post: (path, body, options) => call('POST', path, body, options),
    async call(endpoint, input, options = {}) {
      const envelope =
        endpoint.method === 'GET'
          ? await call('GET', endpoint.path, undefined, { ...options, query: input as CallOptions['query'] })
          : await call('POST', endpoint.path, input, options)
      const parsed = endpoint.data.safeParse(envelope.data)
      if (!parsed.success) {
        // The api and this web disagree about the contract: ours to fix, so it is logged.
        logger.error(
          { path: endpoint.path, issues: parsed.error.issues.slice(0, 3), requestId: options.requestId },
          'api answer does not fit the contract',
        )
        throw new UpstreamError('unknown', M.unknown, { status: 200, code: envelope.code })
      }
      return { ...envelope, data: parsed.data }
    },
  }
}

/** Turns an HTTP status and raw body text into the envelope or the catalogue's error. */
export function fromResponse<T>(status: number, text: unknown, headers?: Pick<Headers, 'get'>): Envelope<T> {
  const body = parseBody(text)
  const msg = typeof body?.msg === 'string' ? body.msg.trim() : ''
  if (status === 401 || body?.code === Code.UNAUTHORIZED) {
    throw new UpstreamError('expired', M.expired, { status, code: body?.code })
  }
  if (status < 200 || status > 299) {
    const message =
      status === 400
        ? msg || M.badRequestFallback
        : status === 403
          ? M.forbidden
          : status === 404
            ? M.notFound
            : status === 500
              ? M.serverError
              : M.otherStatus(status, msg || (typeof body?.message === 'string' ? body.message.trim() : ''))
    throw new UpstreamError('http', message, { status, code: body?.code, retryAfter: retryAfterOf(status, headers) })
  }
  if (!body || typeof body.code !== 'number') {
    // A 2xx that is not an envelope: the api is not the api we know.
    throw new UpstreamError('unknown', M.unknown, { status })
  }
  if (body.code !== Code.OK) {
    throw new UpstreamError('refused', msg || M.bodyCodeFallback, { status, code: body.code })
  }
  return { code: body.code, msg, data: body.data as T }
}

/** Errors thrown before any response: timeout, refused connection, broken network. */
export function fromThrown(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error
  const chain = causes(error)
  if (chain.some((e) => e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'ETIMEDOUT')) {
    return new UpstreamError('timeout', M.timeout)
  }
  if (chain.some((e) => e.code === 'ECONNREFUSED')) {
    return new UpstreamError('connection-refused', M.refused)
  }
  if (
    chain.some(
      (e) =>
        (e.name === 'TypeError' && /fetch failed/i.test(e.message ?? '')) ||
        /^(ECONNRESET|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(String(e.code ?? '')),
    )
  ) {
    return new UpstreamError('network', M.network)
  }
  const message = error instanceof FetchError ? '' : error instanceof Error ? error.message : ''
  return new UpstreamError('unknown', message || M.unknown)
}

type ErrorLike = { name?: string; message?: string; code?: string | number; cause?: unknown }

function causes(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = []
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    out.push(current as ErrorLike)
    current = (current as ErrorLike).cause
  }
  return out
}

function parseBody(text: unknown): { code?: number; msg?: unknown; message?: unknown; data?: unknown } | null {
  if (typeof text !== 'string' || text.length === 0) return null
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as never) : null
  } catch {
    return null
  }
}

/** Retry-After of a 429 in whole seconds (delta-seconds only, as the api sends it), else undefined. */
function retryAfterOf(status: number, headers?: Pick<Headers, 'get'>): number | undefined {
  const raw = status === 429 ? headers?.get('retry-after')?.trim() : undefined
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined
}

export const upstream = createUpstream()
