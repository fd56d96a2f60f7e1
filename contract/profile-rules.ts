/*
 * The profile rules a screen shows. No schemas here (profile.ts holds them), so that screen loads
 * no validation library on its first visit (decision 059).
 */

/** A nickname is 2–20 characters (after trimming): short enough for a row on a phone. */
export const NICKNAME_MIN = 2
export const NICKNAME_MAX = 20
