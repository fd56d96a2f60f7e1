import type { StaffRole } from '../endpoint'

/**
 * The console's desks (decision 047): each desk's page, title, menu label and the staff role that
 * uses it, once. The web's menu, page guard and titles read it (app/ops/desks.ts), and each desk's
 * contract records take their `auth` from it (`deskAuth`), so the api asks the same role.
 * `role: null` is any staff member. tests/web/ops-desks.test.ts holds the three together.
 */
export const OPS_DESKS = {
  dashboard: { path: '/ops', title: 'Dashboard', role: null, nav: 'Dashboard' },
  review: { path: '/ops/review', title: 'Review desk', role: 'reviewer', nav: 'Review' },
  payouts: { path: '/ops/payouts', title: 'Payout desk', role: 'payouts', nav: 'Payouts' },
  rates: { path: '/ops/rates', title: 'Rates and ETAs', role: 'admin', nav: 'Rates and ETAs' },
  people: { path: '/ops/people', title: 'People', role: 'admin', nav: 'People' },
  staff: { path: '/ops/staff', title: 'Staff', role: 'admin', nav: 'Staff' },
  audit: { path: '/ops/audit', title: 'Audit log', role: 'admin', nav: 'Audit log' },
  // Every staff role answers sellers (decision 049).
  support: { path: '/ops/support', title: 'Support desk', role: null, nav: 'Support' },
} as const satisfies Record<string, { path: string; title: string; role: StaffRole | null; nav: string }>

export type DeskName = keyof typeof OPS_DESKS

/** The pages inside a desk: opened by the desk's role. */
export const OPS_DESK_PAGES: { path: string; title: string; desk: DeskName }[] = [
  { path: '/ops/review/:orderId', title: 'Review an order', desk: 'review' },
  { path: '/ops/photo/:id', title: 'Card photo', desk: 'review' },
  { path: '/ops/payouts/reconcile', title: 'Reconcile payouts', desk: 'payouts' },
  { path: '/ops/people/:userId', title: 'A person', desk: 'people' },
  { path: '/ops/support/:id', title: 'A support conversation', desk: 'support' },
]

/** Signing in, setting up and signing out: open to anyone. */
export const OPS_GUEST_PAGES: { path: string; title: string }[] = [
  { path: '/ops/login', title: 'Staff sign-in' },
  { path: '/ops/setup/:token', title: 'Set up your console account' },
  { path: '/ops/logout', title: 'Sign out' },
]

/** Admin can do everything a reviewer and a payouts person can. */
export const roleAllows = (role: string, needed: StaffRole) => role === 'admin' || role === needed

/** Whether a staff member of `role` may use a desk. */
export const deskOpensFor = (desk: DeskName, role: StaffRole) => {
  const needed: StaffRole | null = OPS_DESKS[desk].role
  return needed === null || roleAllows(role, needed)
}

type DeskAuth<N extends DeskName> = (typeof OPS_DESKS)[N]['role'] extends StaffRole ? `staff:${(typeof OPS_DESKS)[N]['role']}` : 'staff'

/** The `auth` of a desk's api calls: its role's, or any staff member's. */
export const deskAuth = <N extends DeskName>(desk: N): DeskAuth<N> => {
  const role: StaffRole | null = OPS_DESKS[desk].role
  return (role === null ? 'staff' : `staff:${role}`) as DeskAuth<N>
}
