import { z } from 'zod'
import { get, noData, post } from './endpoint'
import { pinField } from './pin'

/** A person keeps at most this many bank accounts. */
export const MAX_BANK_CARDS = 5

/**
 * NUBAN (CBN's 10-digit account number): 9 serial digits and a check digit computed over the
 * bank's 3-digit code and the serial with the weights 3,7,3 repeated (CBN NUBAN standard, 2010).
 * Banks with longer codes (microfinance, fintech) use "9" + their 5-digit code, padded to 6, in
 * the newer scheme; we accept only banks whose scheme we can check.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3]

export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = [...(bankCode + serial)].map(Number)
  const weights = WEIGHTS.slice(WEIGHTS.length - digits.length)
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i], 0)
  return (10 - (sum % 10)) % 10
}

/** True when `accountNumber` is a valid NUBAN for the bank with this CBN code. */
export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^\d{3}(\d{3})?$/.test(bankCode)) return false
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9])
}

export const bankSchema = z.object({ code: z.string(), name: z.string() })
export type Bank = z.infer<typeof bankSchema>

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
  .regex(/^\d{3,6}$/, 'Choose your bank')

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

const nubanOk = (b: { bankCode: string; accountNumber: string }) => isValidNuban(b.bankCode, b.accountNumber)
const nubanIssue = () => ({ message: 'This account number does not exist at this bank. Check the digits', path: ['accountNumber'] })

/**
 * `accountName` is typed only with manual payouts; with a payout provider the bank's name is
 * saved and a typed one is ignored (bankCard/resolve shows it first).
 */
export const addBankCardBody = z
  .object({ bankCode: bankCodeField, accountNumber: accountNumberField, accountName: accountNameField.optional(), pin: pinField })
  .strict()
  .refine(nubanOk, nubanIssue)
export type AddBankCardBody = z.infer<typeof addBankCardBody>

export const resolveBankCardBody = z
  .object({ bankCode: bankCodeField, accountNumber: accountNumberField })
  .strict()
  .refine(nubanOk, nubanIssue)

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
