import { Refusals } from '#contract/refusals'

/** The operator console's own sentences (the customer's are in messages.ts). */
export const consoleMessages = {
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
} as const
