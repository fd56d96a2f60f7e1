import { z } from 'zod'
import { post } from '../endpoint'
import { currencyCode, positiveAmount } from '../money-fields'
import { deskAuth } from './desks'

/**
 * Paying by hand (manual mode, or a payout a person must finish): what a payouts person needs to
 * make the bank transfer. The full account number is answered only by `revealAccount`, asked for
 * one withdrawal at a time and audited (`withdrawal.reveal_account`), never with a page of the desk.
 */
export const payoutAccountSchema = z.object({
  withdrawalId: z.string(),
  bankName: z.string(),
  bankCode: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  /** The exact amount to send: the withdrawal's amount less its fee (the `received` of the receipt). */
  amountToSend: positiveAmount,
  currency: currencyCode,
})
export type PayoutAccount = z.infer<typeof payoutAccountSchema>

export const payoutDeskApi = {
  revealAccount: post(
    '/admin/withdraw/reveal',
    deskAuth('payouts'),
    z.object({ id: z.string().min(1).max(64) }).strict(),
    payoutAccountSchema,
  ),
}
