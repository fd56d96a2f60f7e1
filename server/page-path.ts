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
