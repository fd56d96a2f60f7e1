// Links between our screens are Remix's own: prefetch, relative paths, `state`, scroll and view
// transitions behave as Remix users expect. Import them from here so a screen's links read alike.
export { Link, NavLink } from '@remix-run/react'
export type { LinkProps, NavLinkProps } from '@remix-run/react'
