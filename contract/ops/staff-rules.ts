/*
 * The staff rules the console's set-up page shows. No schemas here (staff.ts holds them), so that
 * page loads no validation library on its first visit (decision 059).
 */

/** A staff password's least length: the set-up page's label, input and message all say this one. */
export const STAFF_PASSWORD_MIN = 12
