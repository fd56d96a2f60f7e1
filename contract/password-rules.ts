/**
 * The password's length rules. No schemas here (accounts.ts holds them), so the screens that say
 * them load no validation library.
 */
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128
