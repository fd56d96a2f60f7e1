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
