import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { amountInputValue, formatMoney, parseAmount } from '#contract/money'

/** contract/money.ts: the one way amounts are typed and shown (integer minor units only). */
describe('parseAmount', () => {
  it.each([
    ['1500', 150_000],
    ['1,500.50', 150_050],
    ['₦ 1 500.5', 150_050],
    ['NGN1500', 150_000],
    ['0.01', 1],
    ['1500.', 150_000],
  ])('%j → %d kobo', (text, minor) => {
    expect(parseAmount(text, 'NGN')).toBe(minor)
  })

  it.each(['-5000', '+5000', '−5000', '1.234', 'abc', '', '.', '1e5', '12345678901234', '1,5,0.0.0'])('%j is not an amount', (text) => {
    expect(parseAmount(text, 'NGN')).toBeUndefined()
  })

  it('reads back exactly what amountInputValue wrote, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (minor) => {
        expect(parseAmount(amountInputValue(minor, 'NGN'), 'NGN')).toBe(minor)
      }),
    )
  })

  it('formats in the currency with its minor digits', () => {
    expect(formatMoney(150_050, 'NGN')).toBe('₦1,500.50')
    expect(formatMoney(-5_000, 'NGN', { signed: true })).toBe('-₦50.00')
    expect(formatMoney(5_000, 'NGN', { signed: true })).toBe('+₦50.00')
  })

  it('formats an amount shown before from memory, the same text for any amount and either sign', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.boolean(), (minor, signed) => {
        const first = formatMoney(minor, 'USD', { signed })
        expect(formatMoney(minor, 'USD', { signed })).toBe(first)
        expect(first).toBe(
          new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'USD', signDisplay: signed ? 'exceptZero' : 'auto' }).format(
            minor / 100,
          ),
        )
      }),
    )
    formatMoney(123_456, 'NGN')
    // Intl's format is what a page of amounts spent its time on: a second showing does not call it.
    // (`format` is a getter that hands out a bound function, by the spec.)
    const format = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: object }, 'format', 'get')
    try {
      expect(formatMoney(123_456, 'NGN')).toBe('₦1,234.56')
      expect(format).not.toHaveBeenCalled()
      expect(formatMoney(123_457, 'NGN')).toBe('₦1,234.57')
      expect(format).toHaveBeenCalledTimes(1)
    } finally {
      format.mockRestore()
    }
  })
})
