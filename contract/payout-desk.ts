import { z } from 'zod'
import { post } from './endpoint'
import { currencyCode, minorUnits, positiveAmount } from './money-fields'
import { pinField } from './pin'

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

/** How fast payouts reached the bank over the last days (Withdraw says it): null figures when too few were paid. */
export const payoutSpeedSchema = z.object({
  days: z.number().int().positive(),
  /** Paid withdrawals counted (request to paid). */
  paid: z.number().int().nonnegative(),
  medianMinutes: z.number().int().nonnegative().nullable(),
  p90Minutes: z.number().int().nonnegative().nullable(),
})
export type PayoutSpeed = z.infer<typeof payoutSpeedSchema>

export const payoutDeskApi = {
  revealAccount: post('/admin/withdraw/reveal', 'staff:payouts', z.object({ id: z.string().min(1).max(64) }).strict(), payoutAccountSchema),
}

/**
 * Auto-withdrawal: each order's credit sent on to the default bank account, as a withdrawal of its
 * own (fee, daily maximum and hold as usual), when it is at most `maxAmount` (AUTO_PAYOUT_MAX).
 * Turned on with the withdrawal PIN (checked, never kept); turned off without it.
 */
export const autoWithdrawalSchema = z.object({
  enabled: z.boolean(),
  maxAmount: minorUnits,
  /** Where it goes: the default bank account (null: none saved, so nothing can be sent). */
  bankCard: z.object({ bankName: z.string(), maskedNumber: z.string() }).nullable(),
})
export type AutoWithdrawal = z.infer<typeof autoWithdrawalSchema>

export const autoWithdrawalBody = z
  .object({ enabled: z.boolean({ required_error: 'enabled: true or false' }), pin: pinField.optional() })
  .strict()
  .refine((b) => !b.enabled || b.pin !== undefined, { message: 'Enter your withdrawal PIN to turn this on', path: ['pin'] })

export const autoWithdrawalApi = {
  set: post('/v1/wallet/autoWithdraw', 'user', autoWithdrawalBody, autoWithdrawalSchema),
}
