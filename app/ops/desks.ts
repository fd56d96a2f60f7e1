/**
 * The operator console's pages (/ops/*) in one place: path, title, the role that may use them,
 * and whether they appear in the console's navigation. The access test, the navigation and each
 * page's <title> read this table. `role: null` is any staff member; `access: 'staff-guest'` is
 * the sign-in and set-up pages, open to anyone.
 */
import type { StaffRole } from '#contract/endpoint'

export type ConsoleAccess = 'staff' | 'staff-guest'
export type ConsoleRoute = { path: string; title: string; access: ConsoleAccess; role: StaffRole | null; nav?: string }

export const consoleRoutes: ConsoleRoute[] = [
  { path: '/ops', title: 'Dashboard', access: 'staff', role: null, nav: 'Dashboard' },
  { path: '/ops/login', title: 'Staff sign-in', access: 'staff-guest', role: null },
  { path: '/ops/setup/:token', title: 'Set up your console account', access: 'staff-guest', role: null },
  { path: '/ops/logout', title: 'Sign out', access: 'staff-guest', role: null },
  { path: '/ops/review', title: 'Review desk', access: 'staff', role: 'reviewer', nav: 'Review' },
  { path: '/ops/review/:orderId', title: 'Review an order', access: 'staff', role: 'reviewer' },
  { path: '/ops/photo/:id', title: 'Card photo', access: 'staff', role: 'reviewer' },
  { path: '/ops/payouts', title: 'Payout desk', access: 'staff', role: 'payouts', nav: 'Payouts' },
  { path: '/ops/payouts/reconcile', title: 'Reconcile payouts', access: 'staff', role: 'payouts' },
  { path: '/ops/rates', title: 'Rates and ETAs', access: 'staff', role: 'admin', nav: 'Rates and ETAs' },
  { path: '/ops/people', title: 'People', access: 'staff', role: 'admin', nav: 'People' },
  { path: '/ops/people/:userId', title: 'A person', access: 'staff', role: 'admin' },
  { path: '/ops/staff', title: 'Staff', access: 'staff', role: 'admin', nav: 'Staff' },
  { path: '/ops/audit', title: 'Audit log', access: 'staff', role: 'admin', nav: 'Audit log' },
  // Every staff role answers sellers (decision 049).
  { path: '/ops/support', title: 'Support desk', access: 'staff', role: null, nav: 'Support' },
  { path: '/ops/support/:id', title: 'A support conversation', access: 'staff', role: null },
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

/** The console's navigation for a role: the desks it may use, in the table's order. */
export const consoleNav = (role: StaffRole) =>
  consoleRoutes.filter((r) => r.nav && (r.role === null || role === 'admin' || r.role === role)) as (ConsoleRoute & { nav: string })[]
