import { z } from 'zod'
import { accountNameField, accountNumberField, bankCodeField } from '#contract/bank-cards'
import { pinField } from '#contract/pin'

/*
 * Add bank account's schemas, the same in the action and in the browser, which loads this module
 * on the form's first use (decision 059).
 */

// The account number is checked against the bank's NUBAN scheme by the api (it knows the bank);
// with JavaScript the same check runs as it is typed (accountFitsBank).
export const addSchema = z.object({
  bankCode: bankCodeField,
  accountNumber: accountNumberField,
  accountName: accountNameField,
  pin: pinField,
})

/** With a payout provider: first resolve (no PIN), then save with the PIN; a typed name is dropped. */
export const providerSchema = z
  .object({ intent: z.enum(['resolve', 'add']), bankCode: bankCodeField, accountNumber: accountNumberField, pin: pinField.optional() })
  .refine((b) => b.intent !== 'add' || b.pin, { message: 'Enter your withdrawal PIN', path: ['pin'] })
