import { describe, expect, it } from 'vitest'
import { dayBounds, localDay } from '../../api/lib/day'

/**
 * api/lib/day.ts keeps one formatter per time zone: a kept formatter must answer in the zone it
 * is asked for, whichever zone was asked first.
 */
const AT = Date.UTC(2026, 2, 29, 22, 30) // 22:30 UTC: already the 30th in Berlin, still the 29th in Lagos and New York

describe('day bounds and local days, zone after zone', () => {
  it('answers each zone in its own time, asked in turn and again', () => {
    for (let round = 0; round < 2; round++) {
      expect(localDay(AT, 'Africa/Lagos')).toBe('2026-03-29')
      expect(localDay(AT, 'Europe/Berlin')).toBe('2026-03-30')
      expect(localDay(AT, 'America/New_York')).toBe('2026-03-29')
      expect(localDay(AT, 'UTC')).toBe('2026-03-29')
      expect(dayBounds(AT, 'Africa/Lagos')).toEqual({ start: Date.UTC(2026, 2, 28, 23), end: Date.UTC(2026, 2, 29, 23) })
      expect(dayBounds(AT, 'UTC')).toEqual({ start: Date.UTC(2026, 2, 29), end: Date.UTC(2026, 2, 30) })
      expect(dayBounds(AT, 'America/New_York')).toEqual({ start: Date.UTC(2026, 2, 29, 4), end: Date.UTC(2026, 2, 30, 4) })
    }
  })
})
