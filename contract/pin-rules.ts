/**
 * The withdrawal PIN's rules: 6 digits, stored only as a slow hash with a pepper. Five wrong PINs
 * (on withdrawals, bank-card changes and PIN changes alike) lock PIN actions for 30 minutes; after a
 * reset by e-mail code, withdrawals wait 24 hours. No schemas here (pin.ts holds them), so the
 * sentences every screen may show load no validation library.
 */
export const PIN_MAX_TRIES = 5
export const PIN_LOCK_MINUTES = 30
export const PIN_RESET_WAIT_HOURS = 24

/** What PIN_WRONG names: the tries left ("1 try", "4 tries") and how long a lock lasts. */
export const pinWrongParams = (left: number) => ({ tries: `${left} ${left === 1 ? 'try' : 'tries'}`, minutes: PIN_LOCK_MINUTES })
