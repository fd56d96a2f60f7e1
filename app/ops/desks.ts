/**
 * The console's pages (/ops/*) as the web reads them, from the one desk table
 * (contract/ops/desks.ts): the menu, each page's <title> and who may open it (`requireStaff`).
 * `access: 'staff-guest'` is the sign-in and set-up pages, open to anyone.
 */
import type { StaffRole } from '#contract/endpoint'
import { deskOpensFor, OPS_DESK_PAGES, OPS_DESKS, OPS_GUEST_PAGES, type DeskName } from '#contract/ops/desks'

export type OpsAccess = 'staff' | 'staff-guest'
export type OpsRoute = { path: string; title: string; access: OpsAccess; desk: DeskName | null; nav?: string }

const desks = Object.entries(OPS_DESKS) as [DeskName, (typeof OPS_DESKS)[DeskName]][]

export const opsRoutes: OpsRoute[] = [
  ...desks.map(([desk, d]) => ({ path: d.path, title: d.title, access: 'staff' as const, desk, nav: d.nav })),
  ...OPS_DESK_PAGES.map((p) => ({ path: p.path, title: p.title, access: 'staff' as const, desk: p.desk })),
  ...OPS_GUEST_PAGES.map((p) => ({ ...p, access: 'staff-guest' as const, desk: null })),
]

export const OPS_BRAND = 'Cardlane Ops'

const matches = (pattern: string, pathname: string) => {
  const a = pattern.split('/').filter(Boolean)
  const b = pathname.replace(/\/+$/, '').split('/').filter(Boolean)
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i])
}

export const opsRouteFor = (pathname: string) => opsRoutes.find((r) => matches(r.path, pathname))

export const isOpsPath = (pathname: string) => pathname === '/ops' || pathname.startsWith('/ops/')

/** The document title of a console page: "Review desk - Cardlane Ops". */
export const opsTitle = (pathname: string) => `${opsRouteFor(pathname)?.title ?? 'Not found'} - ${OPS_BRAND}`

/** The role a console path needs: a desk's (null: any staff member), undefined outside the desks. */
export const deskRoleFor = (pathname: string): StaffRole | null | undefined => {
  const desk = opsRouteFor(pathname)?.desk
  return desk ? OPS_DESKS[desk].role : undefined
}

/** The console's menu for a role: the desks it may use, in the table's order. */
export const opsNav = (role: StaffRole) =>
  opsRoutes.filter((r) => r.nav && r.desk && deskOpensFor(r.desk, role)) as (OpsRoute & { nav: string })[]
