import { Refusals } from '#contract/refusals'

/** The operator console's own sentences (the customer's are in messages.ts). */
export const opsMessages = {
  signInFirst: 'Sign in to the console to continue',
  sessionEnded: 'Your console session ended. Please sign in again.',
  notYourDesk: 'Your role cannot open this desk. Ask an admin if you need it.',
  failed: 'That did not work. Please try again.',
  signedIn: 'Signed in',
  signedOut: 'Signed out of the console',
  codeStep: 'Enter the 6-digit code from your authenticator app',
  challengeExpired: 'That sign-in took too long. Please enter your e-mail and password again.',
  setupDone: 'Your console account is ready. Sign in with your password and a code from your app.',
  setupLinkDead: Refusals.STAFF_SETUP_INVALID.msg,
  /** The api's per-address (or per-account) lock on sign-in and set-up, with how long it lasts. */
  tooManyTries: (minutes: number) => `Too many tries from here; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
} as const

/** A failed console sign-in or set-up call in the console's words: a lock says how long it lasts. */
export function opsFailure<F extends { msg: string; code?: number; retryAfter?: number }>(failure: F): F {
  if (failure.code !== 429 || !failure.retryAfter) return failure
  // Without the 429 code, so the form says this sentence and not the customers' lockout one.
  return {
    ...failure,
    msg: opsMessages.tooManyTries(Math.max(1, Math.ceil(failure.retryAfter / 60))),
    code: undefined,
    retryAfter: undefined,
  }
}
