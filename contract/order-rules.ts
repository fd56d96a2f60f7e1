/**
 * An order's size limits. No schemas here (orders.ts holds them), so a screen that shows or keeps
 * to them loads no validation library (decision 059).
 */
export const MAX_CARDS_PER_ORDER = 10
export const MAX_IMAGES_PER_CARD = 10
