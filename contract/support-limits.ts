// The limits alone, without zod: the seller's support screens read them on a first visit (bundle budget).

/** Longest message: a few paragraphs, what a person types on a phone; longer is pasted logs. */
export const SUPPORT_BODY_MAX = 2000
export const SUPPORT_SUBJECT_MAX = 120
/** Messages a seller may send in a minute (their own and new conversations together). */
export const SUPPORT_MESSAGES_PER_MINUTE = 5
