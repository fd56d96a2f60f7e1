import { z } from 'zod'
import { get, noData, post } from './endpoint'
import { pinField } from './pin'

/** A person keeps at most this many bank accounts. */
export const MAX_BANK_CARDS = 5

/**
 * NUBAN (CBN's 10-digit account number): 9 serial digits and a check digit computed over the
 * institution's code and the serial with the weights 3,7,3 repeated. Deposit-money banks use
 * their 3-digit code ("000" + code in the revised 6-digit form, the same digit); other financial
 * institutions (microfinance banks) "9" + their 5-digit code. Wallets and payment-service banks
 * also number accounts by phone number, outside any check digit.
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

/** A phone number without its leading 0, as wallets and microfinance banks use for accounts. */
export const isPhoneShaped = (accountNumber: string) => /^(70|80|81|90|91)\d{8}$/.test(accountNumber)

/**
 * How the account number of a bank can be checked here: `dmb` (3-digit CBN code, Paystack's code
 * is that code), `ofi` ("9" + Paystack's 5-digit code, which is the CBN one), null: not known, so
 * name enquiry decides and nothing is refused locally.
 */
export const nubanSchemeSchema = z.enum(['dmb', 'ofi']).nullable()
export type NubanScheme = z.infer<typeof nubanSchemeSchema>

/** `code`: the payout provider's (Paystack's) bank code, sent as it is. */
export const bankSchema = z.object({ code: z.string(), name: z.string(), nuban: nubanSchemeSchema })
export type Bank = z.infer<typeof bankSchema>

/** False only when the bank's scheme is known and the number cannot be one of its accounts. */
export function accountFitsBank(bank: Pick<Bank, 'code' | 'nuban'>, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false
  if (bank.nuban === 'dmb') return isValidNuban(bank.code, accountNumber)
  if (bank.nuban === 'ofi') return isValidNuban(`9${bank.code}`, accountNumber) || isPhoneShaped(accountNumber)
  return true
}

/** Folded for search: case, accents and punctuation ignored. */
const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()

/**
 * The banks whose name holds every word typed (each as a word's start, "first mon" finds First
 * City Monument Bank, "uba" United Bank For Africa by its initials too), names starting with the query first.
 */
export function searchBanks<B extends Pick<Bank, 'name'>>(banks: B[], query: string): B[] {
  const q = fold(query)
  if (!q) return banks
  const words = q.split(' ')
  const scored: [B, number][] = []
  for (const b of banks) {
    const name = fold(b.name)
    const parts = name.split(' ')
    const initials = parts
      .filter((p) => !['of', 'for', 'and', 'the'].includes(p))
      .map((p) => p[0])
      .join('')
    const hit = words.every((w) => parts.some((p) => p.startsWith(w))) || initials.startsWith(q.replace(/ /g, ''))
    if (hit) scored.push([b, name.startsWith(q) ? 0 : 1])
  }
  return scored.sort((a, b) => a[1] - b[1]).map(([b]) => b)
}

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
