import { z } from 'zod'
import { pinField } from '#contract/pin'
import { requestIdField } from '#contract/withdrawals'
import { walletMessages as W } from './messages'
import { type Limits, limitProblem, readAmount } from './withdraw-amount'

/**
 * Withdraw's schemas, the same in the action and in the browser, which loads this module on the
 * form's first use (decision 059).
 */

/** The amount as typed ("5,000.50"), read in the payout currency's minor units. */
function amountField(currency: string, limits?: Limits) {
  return z
    .string({ required_error: W.amountRequired, invalid_type_error: W.amountInvalid })
    .max(40, W.amountInvalid)
    .transform((text, ctx) => {
      const minor = readAmount(text, currency)
      if (minor === undefined || minor <= 0) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: W.amountInvalid })
        return z.NEVER
      }
      // In the browser, the limits the api will apply, said before the PIN is typed.
      const problem = limits && limitProblem(minor, limits)
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem })
      return minor
    })
}

export const withdrawSchema = (currency: string, limits?: Limits) =>
  z.object({
    bankCardId: z.string({ required_error: W.chooseCard }).min(1, W.chooseCard).max(64, W.chooseCard),
    amount: amountField(currency, limits),
    pin: pinField,
    requestId: requestIdField,
  })

/** "Check" (without JavaScript): the summary for the amount typed, no PIN needed, and why it would be refused. */
export const checkSchema = (currency: string, limits: Limits) => z.object({ amount: amountField(currency, limits) })
