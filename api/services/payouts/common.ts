import type { WithdrawalStatus } from '#contract/withdrawals'
import type { ApiDeps } from '../../deps'

/** Who moves automatic payouts in the audit log. */
export const ACTOR = 'payouts'

/** Our words for a payout the bank or provider did not place; a provider's message is never shown. */
export const FAILED_REASON = 'The bank did not accept this payout'
export const REVERSED_REASON = 'The bank returned the payout'
/** A reversal before any success: the person was never told "paid". */
export const NOT_RECEIVED_REASON = 'Your bank could not receive the money; it is back in your wallet'
/** The business's transfer OTP was never entered, so Paystack cancelled the transfer. */
export const ABANDONED_REASON = 'The payout was cancelled before it was sent; the money is back in your wallet'
/** Paystack refused the account itself: the person can choose or correct the account. */
export const INVALID_ACCOUNT_REASON =
  'Your bank could not accept payments to this account. Check the account or choose another, then withdraw again'

/** Asked again before a payout, the bank gives another holder's name: nothing was sent. */
export const NAME_CHANGED_REASON =
  'Your bank now gives another name for this account. Check the account or choose another, then withdraw again'

/** The withdrawal's status a provider's transfer state asks for. */
export const TARGET: Record<'pending' | 'success' | 'failed' | 'reversed', WithdrawalStatus> = {
  pending: 'processing',
  success: 'success',
  failed: 'failed',
  reversed: 'reversed',
}

/** The next look at a transfer still on its way: the poll interval, doubling with each look (up to a cap). */
export const nextLook = (deps: ApiDeps, attempts: number, now: number) =>
  now + deps.config.payouts.pollSeconds * 1000 * 2 ** Math.min(Math.max(attempts - 1, 0), 6)

/** Ms from a Retry-After, if any, else the back-off. */
export const lookAfter = (deps: ApiDeps, attempts: number, now: number, retryAfterMs: number | null) =>
  Math.max(nextLook(deps, attempts, now), retryAfterMs === null ? 0 : now + retryAfterMs)
