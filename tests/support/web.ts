import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import { decode } from 'turbo-stream'
import { expect } from 'vitest'
import { commitSession, getSession } from '~/utils/session.server'
import type { ToastInput } from '~/utils/session.server'
import { bodyLimitFor } from '../../server/body-limit'
import { createLoadContext } from '../../server/load-context'

/**
 * Calls Remix loaders and actions the way Remix does: a real Request with the cookie the
 * browser would send; a thrown Response (redirect) is returned like a returned one.
 */
export const ORIGIN = 'http://localhost:3000'

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown

export class CookieJar {
  private cookies = new Map<string, string>()
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  absorb(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a))
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  clear() {
    this.cookies.clear()
  }
}

export function makeRequest(
  path: string,
  init: { method?: string; form?: Record<string, string>; jar?: CookieJar; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(init.headers)
  const cookie = init.jar?.header()
  if (cookie) headers.set('Cookie', cookie)
  let body: URLSearchParams | undefined
  if (init.form) {
    body = new URLSearchParams(init.form)
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
  }
  return new Request(new URL(path, ORIGIN), { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body })
}

/**
 * The load context the web process (server/load-context.ts) makes for this request: a memo of its
 * own, the route's body limit, the loopback address the test client has.
 */
export function loadContextFor(request: Request): AppLoadContext {
  return createLoadContext({ clientAddress: '127.0.0.1', bodyLimit: bodyLimitFor(new URL(request.url).pathname).maxBytes })
}

/** A load context of its own, for a flow called outside a loader. */
export const freshContext = (): AppLoadContext => createLoadContext({ clientAddress: '127.0.0.1' })

export async function call(
  handler: unknown,
  request: Request,
  params: Record<string, string> = {},
  jar?: CookieJar,
  context: AppLoadContext = loadContextFor(request),
): Promise<Response> {
  let result: unknown
  try {
    result = await (handler as Handler)({ request, params, context } as never)
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) result = thrown
    else throw thrown
  }
  const response = responseOf(result)
  jar?.absorb(response)
  return response
}

type DataWithInit = { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null }
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit'

/**
 * What a loader or an action answered (a plain object, `data(value, init)`, a Response, thrown or
 * returned), as the Response the assertions read: status, headers and the value as JSON.
 */
export function responseOf(result: unknown): Response {
  if (result instanceof Response) return result
  if (isDataWithInit(result)) return Response.json(result.data ?? null, result.init ?? undefined)
  return Response.json(result ?? null)
}

/** GET a loader as the browser would. */
export function load(handler: unknown, path: string, jar?: CookieJar, params?: Record<string, string>) {
  return call(handler, makeRequest(path, { jar }), params, jar)
}

/**
 * A document request as the web process runs it: the root's and the screen's loaders side by side,
 * sharing one load context (one GET to the api per request), answers in the same order.
 */
export async function loadDocument(
  handlers: unknown[],
  path: string,
  jar?: CookieJar,
  params: Record<string, string> = {},
): Promise<Response[]> {
  const context = loadContextFor(makeRequest(path))
  return await Promise.all(handlers.map((h) => call(h, makeRequest(path, { jar }), params, undefined, context)))
}

/** POST a form to an action as the browser would. */
export function submit(handler: unknown, path: string, form: Record<string, string>, jar?: CookieJar, params?: Record<string, string>) {
  return call(handler, makeRequest(path, { form, jar }), params, jar)
}

export function expectRedirect(response: Response, location: string | RegExp) {
  expect([301, 302, 303, 307, 308]).toContain(response.status)
  const actual = response.headers.get('Location') ?? ''
  if (typeof location === 'string') expect(actual).toBe(location)
  else expect(actual).toMatch(location)
}

export async function jsonOf<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T
}

/** A browser signed in with `token` (and any cached login_* fields), as the session cookie holds it. */
export async function signedInJar(token: string, fields: { login_email?: string; login_username?: string; login_id?: string } = {}) {
  const jar = new CookieJar()
  const session = await getSession(makeRequest('/'))
  session.set('token', token)
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) session.set(k as 'login_email', v)
  jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))
  return jar
}

/** The flash toast a response puts in the session cookie, if any. */
export async function flashedToast(response: Response): Promise<ToastInput | undefined> {
  const jar = new CookieJar()
  jar.absorb(response)
  const session = await getSession(makeRequest('/', { jar }))
  const toast = session.get('toast')
  return toast && { type: toast.type, message: toast.message }
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308]

expect.extend({
  /** expect(response).toHaveRedirect('/login') — a redirect status and that Location (string or RegExp). */
  toHaveRedirect(received: Response, location?: string | RegExp) {
    const actual = received.headers.get('Location')
    const isRedirect = REDIRECT_STATUSES.includes(received.status) || received.headers.has('X-Remix-Redirect')
    const where = received.headers.get('X-Remix-Redirect') ?? actual ?? ''
    const matches = location === undefined || (typeof location === 'string' ? where === location : location.test(where))
    return {
      pass: isRedirect && matches,
      message: () =>
        `expected a redirect${location ? ` to ${String(location)}` : ''}, got ${received.status} ${where ? `to ${where}` : ''}`,
    }
  },
  /** await expect(response).toSendToast({ type: 'error', message: '…' }) — the flash in its Set-Cookie. */
  async toSendToast(received: Response, expected: Partial<ToastInput>) {
    const toast = await flashedToast(received)
    const pass = Boolean(toast) && Object.entries(expected).every(([k, v]) => toast?.[k as keyof ToastInput] === v)
    return {
      pass,
      message: () => `expected the response to flash the toast ${JSON.stringify(expected)}, it flashed ${JSON.stringify(toast ?? null)}`,
    }
  },
})

declare module 'vitest' {
  interface Assertion<T> {
    toHaveRedirect(location?: string | RegExp): T
    toSendToast(toast: Partial<ToastInput>): Promise<T>
  }
}

/** The paths the api answered since log line `from` (its request-log lines), in order: a page's api calls. */
export function apiCallsSince(api: { logs: string[] }, from: number): string[] {
  return api.logs
    .slice(from)
    .map((line) => JSON.parse(line) as { msg?: string; path?: string })
    .filter((l) => l.msg === 'request' && l.path)
    .map((l) => l.path!)
}

/**
 * What a browser with JavaScript reads from a single fetch answer (a POST or GET to `<path>.data`):
 * an action's `{ data }`, or each route's `{ [routeId]: { data } }` for loaders. `body` is the
 * answer's body, as a stream or as the text a raw request read.
 */
export async function singleFetchValue(body: ReadableStream<Uint8Array> | string | null): Promise<any> {
  const stream = typeof body === 'string' ? new Response(body).body! : body!
  const { value, done } = await decode(stream)
  await done
  return value
}
