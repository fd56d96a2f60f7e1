import { randomUUID } from 'node:crypto'

/**
 * One page, one call of each kind: Remix runs a page's loaders in parallel with copies of the
 * request, so the root's /v1/user/index and Home's (for the featured cards and the wallet) would
 * be two calls of the same GET. server.ts gives each incoming request an id header it alone sets
 * (anything a client sent under that name is overwritten) and forgets the memo when the response
 * closes; callApi shares the answer of a GET made with the same token and input within it.
 */
export const REQUEST_ID_HEADER = 'x-cardlane-request-id'

// One table per process: server.ts and the Remix build are bundled apart (build/server.js,
// build/remix/index.js), each with its own copy of this module, so a module-level Map would give
// the web two tables, the id opened in one and looked up in the other: never a shared answer.
type Memos = Map<string, Map<string, Promise<unknown>>>
const shared = globalThis as unknown as Record<symbol, Memos | undefined>
const TABLE = Symbol.for('cardlane.requestMemos')
const memos: Memos = (shared[TABLE] ??= new Map())

/** Opens a memo for one incoming request; the returned function closes it. */
export function openRequestMemo(): { id: string; close(): void } {
  const id = randomUUID()
  memos.set(id, new Map())
  return { id, close: () => memos.delete(id) }
}

/** The GET's answer, made once per incoming request (without server.ts, e.g. in tests: every time). */
export function memoized<T>(request: Request, key: string, run: () => Promise<T>): Promise<T> {
  const memo = memos.get(request.headers.get(REQUEST_ID_HEADER) ?? '')
  if (!memo) return run()
  let pending = memo.get(key) as Promise<T> | undefined
  if (!pending) {
    pending = run()
    memo.set(key, pending)
    // A failure is not kept: the next loader may try again.
    pending.catch(() => memo.delete(key))
  }
  return pending
}

/**
 * A change through the api (any call but a GET) makes what the request has read stale: without
 * JavaScript an action and the page's loaders run in one request, and the loaders must see the
 * change (five wrong PINs lock the form, a claim moves the balance). Runs `change`, then forgets
 * every answer the request shared, whether the change went through or was refused.
 */
export async function afterChange<T>(request: Request, change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } finally {
    memos.get(request.headers.get(REQUEST_ID_HEADER) ?? '')?.clear()
  }
}
