import { z } from 'zod'
import { post } from './endpoint'
import { minorUnits } from './money-fields'
import { pinField } from './pin'

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
