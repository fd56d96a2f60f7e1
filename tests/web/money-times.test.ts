import { describe, expect, it } from 'vitest'
import { formatClock, formatWhen } from '~/components/money'

/** app/components/money.tsx keeps one formatter per time zone: each answers in its own zone. */
const AT = Date.UTC(2025, 4, 14, 14, 30)

describe('formatWhen and formatClock, zone after zone', () => {
  it('writes the time of the zone asked for, whichever zone came first', () => {
    for (let round = 0; round < 2; round++) {
      expect(formatWhen(AT, 'Africa/Lagos')).toBe('14 May 2025, 15:30')
      expect(formatWhen(AT, 'UTC')).toBe('14 May 2025, 14:30')
      expect(formatWhen(AT, 'Asia/Tokyo')).toBe('14 May 2025, 23:30')
      expect(formatClock(AT, 'Africa/Lagos')).toBe('15:30')
      expect(formatClock(AT, 'America/New_York')).toBe('10:30')
      expect(formatClock(AT, 'UTC')).toBe('14:30')
    }
  })
})
