/**
 * The console's pages (/ops/*) as the web reads them, from the one desk table
 * (contract/ops/desks.ts): the menu, each page's <title> and who may open it (`requireStaff`).
 * `access: 'staff-guest'` is the sign-in and set-up pages, open to anyone.
 */
import type { StaffRole } from '#contract/endpoint'
import { deskOpensFor, OPS_DESK_PAGES, OPS_DESKS, OPS_GUEST_PAGES, type DeskName } from '#contract/ops/desks'

export type ConsoleAccess = 'staff' | 'staff-guest'
export type ConsoleRoute = { path: string; title: string; access: ConsoleAccess; desk: DeskName | null; nav?: string }

const desks = Object.entries(OPS_DESKS) as [DeskName, (typeof OPS_DESKS)[DeskName]][]

export const consoleRoutes: ConsoleRoute[] = [
  ...desks.map(([desk, d]) => ({ path: d.path, title: d.title, access: 'staff' as const, desk, nav: d.nav })),
  ...OPS_DESK_PAGES.map((p) => ({ path: p.path, title: p.title, access: 'staff' as const, desk: p.desk })),
  ...OPS_GUEST_PAGES.map((p) => ({ ...p, access: 'staff-guest' as const, desk: null })),
]

export const CONSOLE_BRAND = 'Cardlane Ops'

const matches = (pattern: string, pathname: string) => {
  const a = pattern.split('/').filter(Boolean)
  const b = pathname.replace(/\/+$/, '').split('/').filter(Boolean)
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i])
}

export const consoleRouteFor = (pathname: string) => consoleRoutes.find((r) => matches(r.path, pathname))

export const isConsolePath = (pathname: string) => pathname === '/ops' || pathname.startsWith('/ops/')

/** The document title of a console page: "Review desk - Cardlane Ops". */
export const consoleTitle = (pathname: string) => `${consoleRouteFor(pathname)?.title ?? 'Not found'} - ${CONSOLE_BRAND}`

/** The role a console path needs: a desk's (null: any staff member), undefined outside the desks. */
export const deskRoleFor = (pathname: string): StaffRole | null | undefined => {
  const desk = consoleRouteFor(pathname)?.desk
  return desk ? OPS_DESKS[desk].role : undefined
}

/** The console's menu for a role: the desks it may use, in the table's order. */
export const consoleNav = (role: StaffRole) =>
  consoleRoutes.filter((r) => r.nav && r.desk && deskOpensFor(r.desk, role)) as (ConsoleRoute & { nav: string })[]
