// Amounts and times of the wallet, the one way each is shown: formatMoney from the contract
// (integer minor units, the payout currency) in tabular digits, and times in the wallet's time
// zone, so the server and the browser print the same words and a person abroad still reads
// the time the promise was made in.
import { formatMoney } from '#contract/money'
import { cx } from './ui'

export type MoneyProps = {
  /** Integer minor units (kobo). */
  amount: number
  currency: string
  /** "+" on credits (balance-log amounts). */
  signed?: boolean
  /** hero: the balance; lg: a screen's main figure; md: rows and facts. */
  size?: 'hero' | 'lg' | 'md'
  /** credit: green, for money that came in. */
  tone?: 'default' | 'credit' | 'muted'
  className?: string
}

/** "₦1,500.00": the symbol and the kobo a little smaller in the big sizes, read out as one amount. */
export function Money({ amount, currency, signed = false, size = 'md', tone = 'default', className }: MoneyProps) {
  const text = formatMoney(amount, currency, { signed })
  const classes = cx(
    'cl-amount',
    size === 'hero' && 'cl-amount--hero',
    size === 'lg' && 'cl-amount--lg',
    tone === 'credit' && 'cl-amount--credit',
    tone === 'muted' && 'cl-amount--muted',
    className,
  )
  const parts = size === 'md' ? null : /^(\D*?)([\d,]+)(\.\d+)?$/.exec(text)
  if (!parts) return <span className={classes}>{text}</span>
  const [, prefix, major, minor] = parts
  return (
    <span className={classes}>
      {prefix ? <span className="cl-amount__currency">{prefix}</span> : null}
      {major}
      {minor ? <span className="cl-amount__minor">{minor}</span> : null}
    </span>
  )
}

// A formatter is costly to build and cheap to use: one of each kind per time zone, kept.
const whenFormats = new Map<string, Intl.DateTimeFormat>()
const clockFormats = new Map<string, Intl.DateTimeFormat>()

function formatterIn(kept: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions) {
  let format = kept.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone })
    kept.set(timeZone, format)
  }
  return format
}

/** "14 May 2025, 15:30" in the wallet's time zone. */
export function formatWhen(at: number, timeZone: string): string {
  return formatterIn(whenFormats, timeZone, { dateStyle: 'medium', timeStyle: 'short' }).format(at)
}

/** "15:30" in the wallet's time zone (a lock that ends today). */
export function formatClock(at: number, timeZone: string): string {
  return formatterIn(clockFormats, timeZone, { hour: '2-digit', minute: '2-digit' }).format(at)
}

/** "Lagos time", from "Africa/Lagos": said once beside a promised time. */
export function zoneName(timeZone: string): string {
  const city = timeZone.split('/').pop()?.replace(/_/g, ' ')
  return city && city !== timeZone ? `${city} time` : timeZone
}

/** A time as <time>, machine-readable for assistive technology and tests. */
export function When({ at, timeZone, clock = false }: { at: number; timeZone: string; clock?: boolean }) {
  return <time dateTime={new Date(at).toISOString()}>{clock ? formatClock(at, timeZone) : formatWhen(at, timeZone)}</time>
}
