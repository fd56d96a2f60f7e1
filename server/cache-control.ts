/**
 * Pages and data for a signed-in browser must not outlive the session: after Sign out, Back
 * must not show the previous person's Account page from the browser's cache. The rule: a request
 * that carries a cookie (ours are the session and the Google return) or a response that sets one
 * is personal, and is answered `Cache-Control: no-store`. Static files (/build, public/) never
 * reach this and keep their long cache.
 */
export function noStoreNeeded(request: Request, response: Response): boolean {
  return Boolean(request.headers.get('cookie')) || response.headers.has('set-cookie')
}
