import { z } from 'zod'
import { type NubanScheme } from './bank-card-rules'
import { get, noData, post } from './endpoint'
import { pinField } from './pin'

export {
  accountFitsBank,
  isPhoneShaped,
  isValidNuban,
  MAX_BANK_CARDS,
  nubanCheckDigit,
  type NubanScheme,
  searchBanks,
} from './bank-card-rules'

/** How a bank's account numbers can be checked here (`NubanScheme`, bank-card-rules.ts). */
export const nubanSchemeSchema = z.enum(['dmb', 'ofi']).nullable() satisfies z.ZodType<NubanScheme>

/** `code`: the payout provider's (Paystack's) bank code, sent as it is. */
export const bankSchema = z.object({ code: z.string(), name: z.string(), nuban: nubanSchemeSchema })
export type Bank = z.infer<typeof bankSchema>

export const NUBAN_WRONG = 'This account number does not exist at this bank. Check the digits'

export const bankCardSchema = z.object({
  id: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  accountName: z.string(),
  /** Only the last four digits are ever shown: "•••• 7890". */
  maskedNumber: z.string(),
  isDefault: z.boolean(),
  createdAt: z.number().int(),
})
export type BankCard = z.infer<typeof bankCardSchema>

export const bankCodeField = z
  .string({ required_error: 'Choose your bank', invalid_type_error: 'Choose your bank' })
  .trim()
  .regex(/^[0-9A-Za-z]{2,10}$/, 'Choose your bank')

export const accountNumberField = z
  .string({ required_error: 'Account number is required', invalid_type_error: 'Account number must be text' })
  .transform((s) => s.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{10}$/, 'Account number is the 10 digits of your NUBAN'))

export const accountNameField = z
  .string({ required_error: 'Account name is required', invalid_type_error: 'Account name must be text' })
  .trim()
  .min(2, 'Account name is required')
  .max(80, 'Account name must be at most 80 characters')
  .regex(/^[\p{L}\p{M} .,'&()-]+$/u, 'Account name has characters that are not allowed')

/**
 * `accountName` is typed only with manual payouts; with a payout provider the bank's name is
 * saved and a typed one is ignored (bankCard/resolve shows it first). The account number is
 * checked against the bank's NUBAN scheme by the api, which knows the bank (accountFitsBank).
 */
export const addBankCardBody = z
  .object({ bankCode: bankCodeField, accountNumber: accountNumberField, accountName: accountNameField.optional(), pin: pinField })
  .strict()
export type AddBankCardBody = z.infer<typeof addBankCardBody>

export const resolveBankCardBody = z.object({ bankCode: bankCodeField, accountNumber: accountNumberField }).strict()

/** `bank`: the holder's name as the bank has it. `typed`: manual payouts, the person types the name. */
export const resolvedAccountSchema = z.object({ source: z.enum(['bank', 'typed']), accountName: z.string().nullable() })

const cardId = z.string({ required_error: 'id is required' }).min(1, 'id is required').max(64)
export const deleteBankCardBody = z.object({ id: cardId, pin: pinField }).strict()
export const setDefaultBankCardBody = z.object({ id: cardId }).strict()

export const bankCardsApi = {
  banks: get('/v1/bank/list', 'public', z.object({}), z.array(bankSchema)),
  list: get('/v1/bankCard/list', 'user', z.object({}), z.array(bankCardSchema)),
  add: post('/v1/bankCard/add', 'user', addBankCardBody, bankCardSchema),
  /** The holder's name of an account, to confirm before saving (a payout provider asks the bank). */
  resolve: post('/v1/bankCard/resolve', 'user', resolveBankCardBody, resolvedAccountSchema),
  remove: post('/v1/bankCard/delete', 'user', deleteBankCardBody, noData),
  setDefault: post('/v1/bankCard/setDefault', 'user', setDefaultBankCardBody, noData),
}
