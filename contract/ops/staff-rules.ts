/*
 * The staff rules the console's pages show. No schemas here (staff.ts and endpoint.ts hold them),
 * so those pages load no validation library on their first visit (decisions 059, 062).
 */

/** The staff roles, in the order the staff desk offers them. */
export const STAFF_ROLES = ['reviewer', 'payouts', 'admin'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

/** A staff password's least length: the set-up page's label, input and message all say this one. */
export const STAFF_PASSWORD_MIN = 12
