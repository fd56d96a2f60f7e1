import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { expect } from 'vitest'

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

export function makeRequest(path: string, init: { method?: string; form?: Record<string, string>; jar?: CookieJar; headers?: Record<string, string> } = {}) {
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

export async function call(handler: unknown, request: Request, params: Record<string, string> = {}, jar?: CookieJar): Promise<Response> {
  let result: unknown
  try {
    result = await (handler as Handler)({ request, params, context: {} } as never)
  } catch (thrown) {
    if (thrown instanceof Response) result = thrown
    else throw thrown
  }
  const response = result instanceof Response ? result : new Response(JSON.stringify(result ?? null), { headers: { 'Content-Type': 'application/json' } })
  jar?.absorb(response)
  return response
}

/** GET a loader as the browser would. */
export function load(handler: unknown, path: string, jar?: CookieJar, params?: Record<string, string>) {
  return call(handler, makeRequest(path, { jar }), params, jar)
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
