/**
 * Unsafe methods from another site are refused: a browser tells us with Sec-Fetch-Site,
 * older ones with Origin. SameSite=Lax already keeps the cookie off most cross-site posts;
 * this closes the rest (top-level POST navigations within the Lax window, subdomains).
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isCrossSiteMutation(input: {
  method: string
  host: string | undefined
  origin: string | undefined
  secFetchSite: string | undefined
  allowedHosts?: string[]
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false
  if (input.secFetchSite === 'cross-site' || input.secFetchSite === 'same-site') return true
  if (input.origin === undefined) return false // not a browser, or a same-origin request from an old one
  if (input.origin === 'null') return true
  let originHost: string
  try {
    originHost = new URL(input.origin).host
  } catch {
    return true
  }
  const allowed = new Set([input.host, ...(input.allowedHosts ?? [])].filter(Boolean))
  return !allowed.has(originHost)
}

/**
 * The one post another site may make: an e-mail's one-click unsubscribe (RFC 8058), which a mail
 * client (a webmail page among them) sends to the link's own address with no cookie. Its token is
 * the credential and its route takes exactly the body `List-Unsubscribe=One-Click`
 * (app/upstream/notify.server.ts), so a post from elsewhere can do there what the link already
 * does, and nowhere else.
 */
const ONE_CLICK_PATH = /^\/unsubscribe\/[^/]+$/

export function isOneClickUnsubscribe(input: { method: string; path: string }): boolean {
  return input.method.toUpperCase() === 'POST' && ONE_CLICK_PATH.test(input.path)
}
