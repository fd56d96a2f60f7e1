/**
 * "Today" in a time zone, as epoch ms bounds: the daily withdrawal maximum starts again at local
 * midnight of the wallet's time zone (Africa/Lagos for NGN), not at UTC midnight.
 */
function offsetMs(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
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
