/**
 * The page a request is about. Single fetch asks for a page's data at `<path>.data` (the root's at
 * `/_root.data`), a form without JavaScript posts to the page itself: every rule that reads the
 * path (body limits, the one-click unsubscribe, log masking, metrics) reads it here, so `/x.data`
 * is judged as `/x`. Lazy route discovery's `/__manifest` is a path of its own.
 */
export function pagePath(pathname: string): string {
  if (pathname === '/_root.data') return '/'
  return pathname.endsWith('.data') ? pathname.slice(0, -'.data'.length) : pathname
}

/** The console's pages (decision 052): /ops and every path under it, its data and forms alike. */
export const isOpsPath = (path: string) => path === '/ops' || path.startsWith('/ops/')

/**
 * Which build answers a request (decision 052): the console's for its pages, the customer's for
 * the rest. Lazy route discovery asks both apps at `/__manifest` (no basename: the console's URLs
 * carry /ops themselves); its `p` names the paths a page links to, so they say whose manifest it
 * is. A page that links both apps' paths at once gets `both`: no one manifest holds them.
 */
export function webAppOf(pathname: string, search: URLSearchParams): 'customer' | 'ops' | 'both' {
  if (pathname !== '/__manifest') return isOpsPath(pagePath(pathname)) ? 'ops' : 'customer'
  const paths = search.getAll('p')
  const ops = paths.filter(isOpsPath).length
  return ops === 0 ? 'customer' : ops === paths.length ? 'ops' : 'both'
}
