/** How the console writes times: fixed to UTC so the server's page and the browser's agree. */
const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

export const formatWhen = (at: number) => `${when.format(at)} UTC`

/** 95 → "1 h 35 min"; 3000 → "2 d 2 h". */
export function formatMinutes(total: number): string {
  const m = Math.max(0, Math.round(total))
  if (m < 60) return `${m} min`
  if (m < 24 * 60) return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`
  const h = Math.floor(m / 60)
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${h / 24} d`
}

/** How long ago a moment was, as minutes text: "3 h 10 min". */
export const formatAge = (at: number, now: number) => formatMinutes((now - at) / 60_000)
