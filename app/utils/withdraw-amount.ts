import { formatMoney, parseAmount } from '#contract/money'
import type { WalletInfo } from '#contract/wallet'
import { walletMessages as W } from './messages'
import { refusalMessages as R } from './refusal-messages'

/*
 * Withdraw's amount rules beside its schemas (withdraw-schemas.ts): no schemas here, so the
 * screen's first visit loads no validation library (decision 059).
 */

/** What an amount is checked against, from the wallet. */
export type Limits = Pick<WalletInfo, 'balance' | 'currency' | 'limits'>

/** A typed amount in minor units. parseAmount reads a leading "-" as a currency sign; a minus is never an amount to withdraw. */
export const readAmount = (text: string, currency: string) => (text.includes('-') ? undefined : parseAmount(text, currency))

/** Why the api would refuse this amount, in its own words, or undefined. */
export function limitProblem(minor: number, { balance, currency, limits }: Limits): string | undefined {
  const money = (n: number) => formatMoney(n, currency)
  if (minor < limits.min) return R.belowMinimum(money(limits.min))
  if (minor <= limits.fee) return R.notAboveFee(money(limits.fee))
  if (minor > limits.remainingToday) return R.overToday(money(limits.remainingToday))
  if (minor > balance) return W.overBalance(money(balance))
  return undefined
}
