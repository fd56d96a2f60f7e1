import { Agent, request } from 'undici'

/**
 * The most an api answer may weigh: the biggest real one is a page of a list, tens of kB. A broken
 * or hostile upstream must not fill the web's memory; past this the call fails as "Unknown error
 * occurred", whether the length was declared or not.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024
const dispatcher = new Agent({ maxResponseSize: MAX_ANSWER_BYTES })

/**
 * The `fetch` ofetch calls the api with: undici's request(), the HTTP client under Node's fetch,
 * without the WHATWG layer (Request, Headers, a ReadableStream per body, its finalizers). It takes
 * well under half the CPU of a call through fetch (docs/performance.md) — most of what one
 * upstream call cost a page.
 *
 * It answers what ofetch reads of a response and no more: status, headers.get, and the body as
 * text, read here so the caller's signal covers it. Redirects are not followed: the api never
 * sends one, and a BFF must not be walked to another host by its upstream.
 */
export async function leanFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('leanFetch takes a URL')
  // ofetch has made every body of ours a JSON string by now.
  if (init.body != null && typeof init.body !== 'string') throw new TypeError('leanFetch sends text bodies only')
  const answer = await request(input, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers ? Object.fromEntries(new Headers(init.headers)) : undefined,
    body: init.body ?? undefined,
    signal: init.signal ?? undefined,
    dispatcher,
  })
  const text = await answer.body.text()
  const status = answer.statusCode
  const response = {
    status,
    statusText: '',
    ok: status >= 200 && status <= 299,
    // ofetch reads a body only when `body` is set.
    body: text,
    headers: {
      get(name: string) {
        const value = answer.headers[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      },
    },
    text: () => Promise.resolve(text),
  }
  return response as unknown as Response
}
