import { describe, expect, it } from 'vitest'
import type { Column } from '~/ops/charts'
import { PLOTS_KEPT, stackedBarsPlot, stackedColumnsPlot, stepLinePlot } from '~/ops/charts.server'

/** The console's plots (decision 062): the same figures are drawn once, as long as they are kept. */
const bars = (late: number) => [
  {
    label: 'Orders',
    segments: [
      { label: 'Within ETA', value: 3, tone: 'ok' as const },
      { label: 'Late', value: late, tone: 'late' as const },
    ],
  },
]
const columns = (reviewed: number): Column[] =>
  ['11-23', 'Today'].map((label) => ({
    label,
    segments: [{ label: 'Within ETA', value: reviewed, tone: 'ok' }],
    marker: 15,
    value: '12 min',
  }))

describe('the console plots', () => {
  it('the same figures give the very plot drawn before; other figures are drawn anew', () => {
    const first = stackedBarsPlot(bars(2))
    expect(stackedBarsPlot(bars(2))).toBe(first)
    const other = stackedBarsPlot(bars(5))
    expect(other).not.toBe(first)
    expect(other.markup).not.toBe(first.markup)

    const reviewed = stackedColumnsPlot(columns(4), 'orders')
    expect(stackedColumnsPlot(columns(4), 'orders')).toBe(reviewed)
    // The unit names the axis: the same columns under another unit are another drawing.
    expect(stackedColumnsPlot(columns(4), 'minutes').markup).not.toBe(reviewed.markup)

    const points = [
      { at: Date.UTC(2026, 10, 1), value: 1_200 },
      { at: Date.UTC(2026, 10, 9), value: 1_250 },
    ]
    expect(stepLinePlot(points.map((p) => ({ ...p })))).toBe(stepLinePlot(points))
  })

  it('keeps a bounded number: the oldest is drawn again once others have taken its place', () => {
    const oldest = stackedBarsPlot(bars(1_000))
    for (let i = 0; i < PLOTS_KEPT; i++) stackedBarsPlot(bars(2_000 + i))
    const again = stackedBarsPlot(bars(1_000))
    expect(again).not.toBe(oldest)
    expect(again).toEqual(oldest)
  })
})
