/**
 * The wallet's sentences: a part of the web's catalogue (utils/messages.ts), kept apart so a screen
 * loads only the sentences of its own domain.
 */

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
