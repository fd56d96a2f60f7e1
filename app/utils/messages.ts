/**
 * The web's catalogue of sentences a person reads ("messages" means only this, decision 028):
 * SPEC §8's failure lines word for word and the shell's, in one place so they can be checked against
 * the specification and translated later. Each domain's own words are in a file beside it
 * (selling-, task-, pin-messages.ts), so a screen loads only its domain's sentences.
 */
export const transportMessages = {
  expired: 'Login expired, please login again',
  bodyCodeFallback: 'Request failed',
  network: 'Network connection failed. Please check your internet connection.',
  timeout: 'Request timeout. Please try again later.',
  badRequestFallback: 'Invalid request parameters',
  forbidden: 'Access denied',
  notFound: 'API endpoint not found. Please check if the backend service is running correctly.',
  serverError: 'Server internal error',
  otherStatus: (status: number, msg: string) => (msg ? `Request failed (${status}): ${msg}` : `Request failed (${status})`),
  refused: 'Cannot connect to server. Please check if the backend service is running.',
  unknown: 'Unknown error occurred',
} as const

/** Fallbacks of the flows when neither the server nor the error says anything (SPEC §8). */
export const flowFallbacks = {
  login: 'Login failed, please try again later',
  register: 'Registration failed, please try again later',
  sendCode: 'Failed to send verification code, please try again later',
  resetPassword: 'Password reset failed, please try again later',
  updateProfile: 'Failed to update user information, please try again later',
  google: 'Google Login failed, please try again later',
  wallet: 'Failed to load your wallet, please try again later',
  setPin: 'Failed to set your withdrawal PIN, please try again later',
  resetPin: 'Failed to reset your withdrawal PIN, please try again later',
  bankCards: 'Failed to load your bank accounts, please try again later',
  addBankCard: 'Failed to add the bank account, please try again later',
  removeBankCard: 'Failed to remove the bank account, please try again later',
  withdraw: 'Withdrawal failed, please try again later',
  withdrawal: 'Failed to load the withdrawal, please try again later',
} as const

/**
 * The api's HTTP 429. The catalogue's "Request failed (429): …" is the transport's word for it; a
 * person gets one of these sentences, and on sign-in a way that still works. A lockout says how
 * long it lasts (Retry-After); a 429 without one is the api busy for a moment.
 */
export const lockoutMessages = {
  tooManyAttempts: (minutes: number) => `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'}, then try again.`,
  busy: 'We are busy right now. Please try again in a moment.',
  useCode: 'Sign in with an e-mail code instead',
} as const

/** A 429 that locks the person out for a while, not a busy moment. */
export const isLockout = (failure: { code?: number; retryAfter?: number }) => failure.code === 429 && (failure.retryAfter ?? 0) >= 60

/** What a form shows for a failed flow: its message, or a 429's own sentence. */
export function flowMessage(failure: { msg: string; code?: number; retryAfter?: number }): string {
  if (failure.code !== 429) return failure.msg
  return isLockout(failure) ? lockoutMessages.tooManyAttempts(Math.ceil(failure.retryAfter! / 60)) : lockoutMessages.busy
}

/** The Home greeting: a new person is welcomed, someone coming back is greeted again. */
export const greetingMessages = {
  newHello: (brand: string) => `Welcome to ${brand}`,
  newSub: 'Choose the nickname people will see on your trades.',
  hello: (name: string) => `Hi, ${name}`,
  sub: 'Good to see you again.',
  unreachable: 'We cannot load your account right now.',
} as const

export const accessMessages = {
  pleaseLogin: 'Please sign in to continue',
  tooLarge: 'That was more than this form can take. Please try again with less.',
  formUnreadable: 'This form could not be read. Please reload the page and try again.',
  signOutFailed: 'Sign-out was refused by the server, so you are still signed in. Please try again.',
  signedOutHereOnly:
    'You are signed out on this device. We could not reach our server, so other devices may stay signed in until it is back.',
} as const

/** The wallet, PIN, bank account and withdrawal screens. */
export const walletMessages = {
  /** Under a withdrawal in the activity: where its amount went. */
  withdrawalSplit: (received: string, fee: string) => `${received} to your bank + ${fee} fee`,
  /** Under its payout: the fee, named as the fee. */
  feeKept: (fee: string) => `after the ${fee} fee`,
  available: 'Available balance',
  onHold: 'On hold',
  onHoldExplained: 'Withdrawals on their way to your bank. If a payout fails, it comes back to your available balance.',
  noActivity: 'No activity yet',
  noActivityText: 'Money from cards you sell lands here. Withdrawals to your bank show here too.',
  pinMissingTitle: 'Set your withdrawal PIN',
  pinMissingText: 'You need a 6-digit PIN to add a bank account and to withdraw.',
  pinMismatch: 'The two PINs do not match',
  resetWait:
    'After a reset with an e-mail code, withdrawals wait 24 hours, so nobody who gets into your e-mail can empty your wallet at once.',
  noBankCard: 'Add the bank account to pay to',
  noBankCardText: 'Withdrawals go to a Nigerian bank account in your name.',
  nubanOk: (bank: string) => `The account number checks out for ${bank}.`,
  nubanWrong: 'This account number does not exist at this bank. Check the digits',
  payoutMinutes: (n: number) => `Sent at once: usually in your bank within ${n} minutes.`,
  payoutApproval: (line: string) => `Over ${line} a person approves the payout first.`,
  resolving: 'Asking your bank for the account’s name…',
  nameTyped: 'Payouts are made by hand here: type the account name as your bank shows it.',
  amountInvalid: 'Enter an amount like 5000 or 5000.50',
  amountRequired: 'Enter the amount',
  // The api's refusals, said before sending when the form can tell.
  overBalance: (balance: string) => `Your available balance is ${balance}`,
  chooseCard: 'Choose the bank account',
  withdrawalNotFound: 'Withdrawal not found',
  withdrawalNotFoundHeading: 'We could not find this withdrawal',
  withdrawalNotFoundText: 'It may belong to another account, or the link is wrong.',
  refunded: 'The full amount is back in your available balance.',
} as const

/** What each balance-log entry is, in a person's words. */
export const balanceLogLabels = {
  order_payout: 'Card sold',
  withdraw: 'Withdrawal',
  withdraw_paid: 'Paid to your bank',
  withdraw_refund: 'Withdrawal returned',
  withdraw_reversal: 'Returned by the bank',
  task_reward: 'Task reward',
  adjustment: 'Adjustment',
} as const satisfies Record<string, string>

/** A withdrawal's status, and what each step of its timeline means. */
export const withdrawalStatusLabels = {
  pending: 'Requested',
  processing: 'Processing',
  success: 'Paid',
  failed: 'Failed',
  reversed: 'Returned by the bank',
} as const satisfies Record<string, string>

export const withdrawalStepTexts = {
  pending: 'The amount is on hold in your wallet.',
  processing: 'We are sending the money to your bank.',
  success: 'The money was paid to your bank.',
  failed: 'The payout failed. The full amount is back in your available balance.',
} as const satisfies Record<string, string>

export const profileMessages = {
  googleLinked: 'Google account linked',
  googleLinkFailed: 'Linking Google failed, please try again later',
  googleUnavailable: 'Google sign-in is not available right now',
  choosePhoto: 'Choose a photo to upload',
  photoUnreadable: 'The photo could not be read. Please choose it again.',
  oneAtATime: 'Choose one photo',
  photoUploading: 'Wait for the photo to finish uploading',
  photoReady: 'New photo ready. Save to use it.',
  uploadFailed: 'Failed to upload the photo, please try again later',
} as const

/**
 * Deleting the account (app/routes/delete-account.tsx), and what the privacy policy says about it
 * (app/routes/user.privacy.tsx): the same words in both places.
 */
export const FINANCIAL_RECORDS_YEARS = 6
export const deleteAccountMessages = {
  infoFailed: 'Failed to load your account, please try again later',
  deleteFailed: 'Failed to delete your account, please try again later',
  deleted: 'Your account has been deleted',
  heading: 'Delete your account',
  lead: 'This cannot be undone. Read what goes and what stays first.',
  blockedTitle: 'You cannot delete your account yet',
  /** What the person loses, each a line. */
  lost: [
    'Signing in to this account: your password, e-mail codes and Google sign-in stop working at once, on every device.',
    'Your e-mail address, nickname and profile photo.',
    'Your saved bank accounts and your withdrawal PIN.',
    'Your notifications, and photos you uploaded that are not part of an order.',
    'Your order history and wallet activity in the app.',
  ],
  /** What is kept, without anything that says who you are. */
  kept: [
    `Records of your orders, wallet entries and withdrawals, for ${FINANCIAL_RECORDS_YEARS} years, because financial law requires them. They keep an internal user ID that no longer leads to you: no name, no e-mail, no bank account number.`,
    'Your e-mail address is free again: you can sign up with it later, as a new account with nothing of this one.',
  ],
  confirmPassword: 'Type your password to confirm.',
  confirmCode: 'Your account has no password, so we e-mail you a code to confirm.',
  submit: 'Delete my account',
  keep: 'Keep my account',
  /** The way out of each refusal (contract/refusals.ts DELETE_*), by its code. */
  unblock: {
    4321: { to: '/wallet/withdraw', label: 'Withdraw' },
    4322: { to: '/wallet', label: 'See your wallet' },
    4323: { to: '/wallet', label: 'See your wallet' },
    4324: { to: '/history', label: 'See your orders' },
    4327: { to: '/support', label: 'Contact support' },
  } as Record<number, { to: string; label: string } | undefined>,
} as const
