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

const fieldsByCurrency = new Map<string, ReturnType<typeof withdrawSchema>>()

/**
 * Withdraw's fields as the page's native constraints see them. The limits are a refinement, which
 * gives no constraint, so one schema a payout currency serves every page and its constraints are
 * worked out once (form.server.ts keeps them by schema).
 */
export function withdrawFields(currency: string) {
  let schema = fieldsByCurrency.get(currency)
  if (!schema) fieldsByCurrency.set(currency, (schema = withdrawSchema(currency)))
  return schema
}

/** "Check" (without JavaScript): the summary for the amount typed, no PIN needed, and why it would be refused. */
export const checkSchema = (currency: string, limits: Limits) => z.object({ amount: amountField(currency, limits) })
