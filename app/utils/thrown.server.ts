/**
 * What a loader or action throws on purpose: a Response (a redirect, the expiry's) or a `data()`
 * refusal with its status (single fetch's thrown answer). Passed on as it is, never taken for a failure.
 */
export function isThrownAnswer(error: unknown): boolean {
  if (error instanceof Response) return true
  return typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'DataWithResponseInit'
}
