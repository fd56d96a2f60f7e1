import { formatMoney } from '#contract/money'
import { formatWhen } from './format'

/**
 * An audit entry's before and after as a person reads them: one line a field that changed (or a
 * field set, when there was no before), its name in words and its values as the console writes
 * them (times in UTC, amounts in their currency), never the raw JSON.
 */
export type Change = { field: string; before: string | null; after: string }

/** Nested objects flatten to "Bank card › Bank name"; lists past this many items are counted, not listed. */
const MAX_ITEMS = 5
const MAX_TEXT = 120
/** Never shown, whatever an entry carries. */
const SECRET = /hash|secret|token|seed|password|(^|_)pin($|_)|pinHash|account_number|accountNumber/i
const MONEY = /amount|fee|balance|frozen|payout|credited/i
const TIME = /(^|_)at$|At$|(^|_)by$|expectedBy|expires/i

/** payout_state, payoutState → "Payout state". */
export function fieldName(key: string): string {
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : key
}

function valueText(key: string, value: unknown, currency: string | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'number') {
    if (TIME.test(key) && value > 1e11) return formatWhen(value)
    if (MONEY.test(key) && currency && Number.isInteger(value)) return formatMoney(value, currency)
    return String(value)
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) return `${value.length} items`
    return value
      .map((v) => (typeof v === 'object' && v !== null ? `{${Object.keys(v).length} fields}` : valueText(key, v, currency)))
      .join(', ')
  }
  if (typeof value === 'object') return `{${Object.keys(value).length} fields}`
  const text = String(value)
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
}

/** Scalars by a readable path: nested objects one level in ("Bank card › Bank name"), lists as one value. */
function flatten(value: unknown, prefix = '', depth = 0): Map<string, { key: string; value: unknown }> {
  const out = new Map<string, { key: string; value: unknown }>()
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (value !== undefined) out.set(prefix || 'Value', { key: prefix, value })
    return out
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET.test(key)) continue
    const path = prefix ? `${prefix} › ${fieldName(key)}` : fieldName(key)
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < 1) {
      for (const [p, inner] of flatten(v, path, depth + 1)) out.set(p, inner)
    } else out.set(path, { key, value: v })
  }
  return out
}

const currencyOf = (v: unknown) =>
  v && typeof v === 'object' && 'currency' in v && typeof (v as { currency: unknown }).currency === 'string'
    ? (v as { currency: string }).currency
    : undefined

export function auditChanges(before: unknown, after: unknown): Change[] {
  const currency = currencyOf(after) ?? currencyOf(before)
  const was = before === null || before === undefined ? null : flatten(before)
  const now = after === null || after === undefined ? new Map<string, { key: string; value: unknown }>() : flatten(after)
  const changes: Change[] = []
  for (const [field, { key, value }] of now) {
    const text = valueText(key, value, currency)
    const old = was?.get(field)
    if (!was) changes.push({ field, before: null, after: text })
    else {
      const oldText = old ? valueText(old.key, old.value, currency) : '—'
      if (oldText !== text) changes.push({ field, before: oldText, after: text })
    }
  }
  // A field the after no longer has (removed) reads as cleared.
  if (was)
    for (const [field, old] of was)
      if (!now.has(field)) changes.push({ field, before: valueText(old.key, old.value, currency), after: '—' })
  return changes
}
