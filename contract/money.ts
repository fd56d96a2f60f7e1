/**
 * Money is an integer count of minor units (kobo for NGN: 150000 is ₦1,500.00), never a float
 * (DESIGN §3). The payout currency is a setting of the api (CURRENCY, default NGN) and travels
 * with every amount the screens show. The schemas of an amount are in money-fields.ts, so a screen
 * that only shows money does not load the validation library.
 */
export const MAX_AMOUNT = 1_000_000_000_000 // 10 billion in major units: far beyond any wallet

// An Intl.NumberFormat costs tens of microseconds to build, and a page shows dozens of amounts:
// one per currency and style, kept for the life of the process (a handful of currencies exist).
const digitsCache = new Map<string, number>()
const formatters = new Map<string, Intl.NumberFormat>()
const formatted = new Map<string, string>()
const MAX_FORMATTED = 5000

/** Digits after the decimal point of a currency (ISO 4217 minor units). */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency)
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    } catch {
      digits = 2
    }
    // Only real currency codes are kept, so input cannot grow the cache without bound.
    if (/^[A-Z]{3}$/.test(currency) && digitsCache.size < 500) digitsCache.set(currency, digits)
  }
  return digits
}

/**
 * A typed amount ("1,500", "1500.5", "₦ 1 500.50") as minor units, with integer arithmetic only;
 * undefined when it is not a plain amount or has more decimals than the currency has.
 */
export function parseAmount(text: string, currency: string): number | undefined {
  // A sign is not a currency symbol: "-5000" is no amount to withdraw, not 5000.
  if (/[-+−]/.test(text)) return undefined
  const cleaned = text.replace(/[\s,_\u00a0\u202f]/g, '').replace(/^[^\d.]{1,4}/, '')
  const digits = minorDigits(currency)
  const m = /^(\d{1,13})(?:\.(\d*))?$/.exec(cleaned)
  if (!m) return undefined
  const fraction = m[2] ?? ''
  if (fraction.length > digits) return undefined
  const value = Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
  return Number.isSafeInteger(value) && value <= MAX_AMOUNT ? value : undefined
}

/** Minor units as a plain decimal string for a form field ("1500.50"). */
export function amountInputValue(minor: number, currency: string): string {
  const digits = minorDigits(currency)
  if (digits === 0) return String(minor)
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(minor)
  return `${sign}${Math.floor(abs / 10 ** digits)}.${String(abs % 10 ** digits).padStart(digits, '0')}`
}

/** "₦1,500.00" — the one way an amount is shown. `signed` adds "+" to credits. */
export function formatMoney(minor: number, currency: string, options: { signed?: boolean } = {}): string {
  const key = `${currency}${options.signed ? '+' : ''}`
  // The same amounts come back on page after page (rates, balances): Intl's format is the cost.
  const memoKey = `${key} ${minor}`
  const known = formatted.get(memoKey)
  if (known !== undefined) return known
  const digits = minorDigits(currency)
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.NumberFormat('en-NG', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: options.signed ? 'exceptZero' : 'auto',
    })
    if (/^[A-Z]{3}$/.test(currency) && formatters.size < 1000) formatters.set(key, format)
  }
  const text = format.format(minor / 10 ** digits)
  if (formatters.has(key)) {
    // Bounded: when full it starts again rather than tracking what was used last.
    if (formatted.size >= MAX_FORMATTED) formatted.clear()
    formatted.set(memoKey, text)
  }
  return text
}
