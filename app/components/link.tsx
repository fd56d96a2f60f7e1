// Links between our screens, as plain anchors, and the one listener that makes them client-side
// navigations once the app has hydrated (decision 012).
//
// Why not Remix's <Link>: on the server each one resolves its path against the route matches,
// reads five router contexts and sets up prefetch and click hooks: 14 % of a signed-in Home's CPU
// for its 20 links (docs/performance.md, 25 Nov). Every `to` we write is already a whole path or a
// query, so the browser resolves it as React Router would, and one click listener on the window
// does per page what the hooks did per link. Without JavaScript (or before hydration) they are
// ordinary links, as Remix's were.
import { PrefetchPageLinks, useNavigate } from '@remix-run/react'
import { forwardRef, useEffect, useState, type AnchorHTMLAttributes } from 'react'

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path from the root (`/wallet`), or a query or hash of this page (`?page=2`). */
  to: string
  /** Replace the current history entry instead of adding one. */
  replace?: boolean
  /** A full page load (the answer is not one of our screens, e.g. a redirect to another site). */
  reloadDocument?: boolean
  /** `intent`: fetch the next screen's code and data while the pointer or focus is on the link. */
  prefetch?: 'intent' | 'none'
}

/** Marks the anchors the listener may take over: ours, not a file download or an outside link. */
const IN_APP = 'data-nav'

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, reloadDocument, prefetch, children, ...rest },
  ref,
) {
  return (
    <a
      {...rest}
      ref={ref}
      href={to}
      data-nav={reloadDocument ? undefined : replace ? 'replace' : ''}
      data-prefetch={prefetch === 'intent' && !reloadDocument ? '' : undefined}
    >
      {children}
    </a>
  )
})

/** Whether the location `to` names is the page `pathname` (the tab bar marks its current tab). */
export function isCurrent(pathname: string, to: string, end = false): boolean {
  const path = to.toLowerCase()
  const here = pathname.toLowerCase()
  return here === path || (!end && here.startsWith(path.endsWith('/') ? path : `${path}/`))
}

/** The anchor of ours a click or a pointer is on, with where it goes, or null. */
function inAppTarget(event: Event): { anchor: HTMLAnchorElement; url: URL } | null {
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (!(anchor instanceof HTMLAnchorElement) || !anchor.hasAttribute(IN_APP)) return null
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null
  const url = new URL(anchor.href)
  return url.origin === window.location.origin ? { anchor, url } : null
}

/**
 * Render once, in the root document: a plain left click on one of our links becomes a client-side
 * navigation (as <Link> did: a modified click, another target or a click a handler already
 * took is left to the browser), and `prefetch="intent"` links prefetch on hover, focus or touch.
 */
export function InAppNavigation() {
  const navigate = useNavigate()
  const [prefetch, setPrefetch] = useState<string | null>(null)
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
      const hit = inAppTarget(event)
      if (!hit) return
      const { anchor, url } = hit
      const here = window.location
      // A jump within this page is the browser's to make (it scrolls to the anchor).
      if (url.hash && url.pathname === here.pathname && url.search === here.search) return
      event.preventDefault()
      const path = url.pathname + url.search + url.hash
      // As <Link>: the same location again replaces the entry instead of stacking it.
      const same = path === here.pathname + here.search + here.hash
      navigate(path, { replace: anchor.getAttribute(IN_APP) === 'replace' || same })
    }
    const onIntent = (event: Event) => {
      const hit = inAppTarget(event)
      if (hit?.anchor.hasAttribute('data-prefetch')) setPrefetch(hit.url.pathname + hit.url.search)
    }
    // On the window: it hears a click after React's own handlers (on the document) have had it.
    window.addEventListener('click', onClick)
    document.addEventListener('mouseover', onIntent, { passive: true })
    document.addEventListener('focusin', onIntent)
    document.addEventListener('touchstart', onIntent, { passive: true })
    return () => {
      window.removeEventListener('click', onClick)
      document.removeEventListener('mouseover', onIntent)
      document.removeEventListener('focusin', onIntent)
      document.removeEventListener('touchstart', onIntent)
    }
  }, [navigate])
  return prefetch ? <PrefetchPageLinks page={prefetch} /> : null
}
