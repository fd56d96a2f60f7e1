/*
 * The bank-account rules a screen shows or checks as it is typed. No schemas here (bank-cards.ts
 * holds them), so those screens load no validation library on their first visit (decision 059).
 */

/** A person keeps at most this many bank accounts. */
export const MAX_BANK_CARDS = 5

/**
 * How the account number of a bank can be checked here: `dmb` (3-digit CBN code, Paystack's code
 * is that code), `ofi` ("9" + Paystack's 5-digit code, which is the CBN one), null: not known, so
 * name enquiry decides and nothing is refused locally.
 */
export type NubanScheme = 'dmb' | 'ofi' | null

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

/** False only when the bank's scheme is known and the number cannot be one of its accounts. */
export function accountFitsBank(bank: { code: string; nuban: NubanScheme }, accountNumber: string): boolean {
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
export function searchBanks<B extends { name: string }>(banks: B[], query: string): B[] {
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
