import type { AppLoadContext } from '@remix-run/node'

/**
 * One page, one call of each kind: Remix runs a page's loaders in parallel, so the root's
 * /v1/user/index and Home's (for the featured cards and the wallet) would be two calls of the same
 * GET. The web process gives every incoming request a memo of its own in the load context
 * (server/load-context.ts); callApi shares the answer of a GET made with the same token and input
 * within it.
 */
export function memoized<T>(context: AppLoadContext, key: string, run: () => Promise<T>): Promise<T> {
  const { memo } = context
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
export async function afterChange<T>(context: AppLoadContext, change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } finally {
    context.memo.clear()
  }
}
