/**
 * "Today" in a time zone, as epoch ms bounds: the daily withdrawal maximum starts again at local
 * midnight of the wallet's time zone (Africa/Lagos for NGN), not at UTC midnight.
 */

// Building a formatter costs far more than using one: one of each kind per time zone, kept for the
// process (a handful of zones at most: the wallet's, and a test's).
const partsFormats = new Map<string, Intl.DateTimeFormat>()
const dayFormats = new Map<string, Intl.DateTimeFormat>()
const momentFormats = new Map<string, Intl.DateTimeFormat>()

function formatIn(kept: Map<string, Intl.DateTimeFormat>, timeZone: string, locale: string, options: Intl.DateTimeFormatOptions) {
  let format = kept.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone })
    kept.set(timeZone, format)
  }
  return format
}

const partsFormatIn = (timeZone: string) =>
  formatIn(partsFormats, timeZone, 'en-US', {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })

/** YYYY-MM-DD of a moment in a time zone (en-CA writes dates that way). */
export function localDay(at: number, timeZone: string): string {
  return formatIn(dayFormats, timeZone, 'en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

/** A moment as a person reads it in a message: "Mon 30 Nov, 14:30 GMT+1". */
export function formatMoment(at: number, timeZone: string): string {
  const f = formatIn(momentFormats, timeZone, 'en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  })
  return f.format(at)
}

function offsetMs(at: number, timeZone: string): number {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {}
  for (const p of partsFormatIn(timeZone).formatToParts(at)) parts[p.type] = p.value
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  )
  return asUtc - Math.floor(at / 1000) * 1000
}

export function dayBounds(at: number, timeZone: string): { start: number; end: number } {
  const offset = offsetMs(at, timeZone)
  const local = at + offset
  const localMidnight = local - (((local % 86_400_000) + 86_400_000) % 86_400_000)
  const start = localMidnight - offset
  // The next midnight, with the offset of that moment (a daylight-saving change moves it).
  const nextLocalMidnight = localMidnight + 86_400_000
  const end = nextLocalMidnight - offsetMs(nextLocalMidnight - offset, timeZone)
  return { start, end }
}
