// The plots of the console's charts (decisions 020, 062), drawn on the server with visx's scales
// and shapes: a loader sends the markup and charts.tsx puts it in the chart's SVG, so the browser
// loads none of visx or d3. The dashboard's bars and columns draw their axes as plain SVG from
// visx's scales (decision 056): visx's axis measures every label's text, which the dashboard paid
// on every page.
import { AxisBottom, AxisLeft } from '@visx/axis'
import { curveStepAfter } from '@visx/curve'
import { Group } from '@visx/group'
import { scaleBand, scaleLinear, scaleTime } from '@visx/scale'
import { LinePath } from '@visx/shape'
import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { tones, type Column, type Plot, type Segment } from './charts'

const INK = '#334155'
const GRID = '#cbd5e1'
const tickLabel = { fill: INK, fontSize: 12, fontFamily: 'inherit' } as const
const margin = { top: 12, right: 16, bottom: 32, left: 96 }

/** A coordinate to a tenth of a pixel: what a screen shows, in fewer characters. */
const px = (n: number) => Math.round(n * 10) / 10
const TICK = 8

type Tick = { at: number; label: string }

/** A vertical axis at x = 0 over [from, to]: its line, a mark and a label left of each tick. */
function LeftAxis({ from, to, ticks, label }: { from: number; to: number; ticks: Tick[]; label?: string }) {
  const marks = ticks.map((t) => `M0,${px(t.at)}h${-TICK}`).join('')
  return (
    <g className="ops-chart__axis">
      <path d={`M0,${px(from) + 0.5}V${px(to) + 0.5}${marks}`} stroke={GRID} shapeRendering="crispEdges" fill="none" />
      <g {...tickLabel} textAnchor="end">
        {ticks.map((t) => (
          <text key={t.label} x={-TICK} y={px(t.at)} dy="0.33em">
            {t.label}
          </text>
        ))}
        {label ? (
          <text transform="rotate(-90)" x={px(-(from + to) / 2)} y={-(TICK + 36)} textAnchor="middle">
            {label}
          </text>
        ) : null}
      </g>
    </g>
  )
}

/** A horizontal axis at y = top over [from, to]: its line, a mark and a label under each tick. */
function BottomAxis({ top, from, to, ticks }: { top: number; from: number; to: number; ticks: Tick[] }) {
  const marks = ticks.map((t) => `M${px(t.at)},0v${TICK}`).join('')
  return (
    <g className="ops-chart__axis" transform={`translate(0, ${px(top)})`}>
      <path d={`M${px(from) + 0.5},0H${px(to) + 0.5}${marks}`} stroke={GRID} shapeRendering="crispEdges" fill="none" />
      <g {...tickLabel} textAnchor="middle">
        {ticks.map((t) => (
          <text key={t.label} x={px(t.at)} y={TICK + tickLabel.fontSize}>
            {t.label}
          </text>
        ))}
      </g>
    </g>
  )
}

/** Ticks at the middle of each band of a band scale, labelled by the band. */
const bandTicks = (scale: { domain(): string[]; bandwidth(): number; (v: string): number | undefined }) =>
  scale.domain().map((label) => ({ at: (scale(label) ?? 0) + scale.bandwidth() / 2, label }))

/** Whole-number ticks of a linear scale. */
const wholeTicks = (scale: { ticks(n: number): number[]; (v: number): number }, count: number) =>
  scale
    .ticks(count)
    .filter(Number.isInteger)
    .map((v) => ({ at: scale(v), label: String(v) }))

/** What goes inside a chart's SVG of this size, as markup. */
const plot = (width: number, height: number, drawing: ReactElement): Plot =>
  Object.freeze({ width, height, markup: renderToStaticMarkup(drawing) })

/** How many plots are kept: a few screens' charts, each drawn from the figures it shows. */
export const PLOTS_KEPT = 64
const kept = new Map<string, Plot>()

/**
 * A plot is drawn from its figures alone, so the same figures give the same markup: a chart whose
 * figures did not change since it was last drawn is not drawn again (the console's pages ask for
 * the same few charts over and over). Keyed by every figure the drawing reads; the oldest go first.
 */
function remembered(key: string, draw: () => Plot): Plot {
  const known = kept.get(key)
  if (known) return known
  const made = draw()
  if (kept.size >= PLOTS_KEPT) kept.delete(kept.keys().next().value!)
  kept.set(key, made)
  return made
}

/** Horizontal bars, each split into segments (on time, late): "what waits and how late". */
export const stackedBarsPlot = (rows: { label: string; segments: Segment[] }[]): Plot =>
  remembered(`bars ${JSON.stringify(rows)}`, () => drawBars(rows))

function drawBars(rows: { label: string; segments: Segment[] }[]): Plot {
  const width = 560
  const height = margin.top + margin.bottom + rows.length * 44
  const max = Math.max(1, ...rows.map((r) => r.segments.reduce((s, x) => s + x.value, 0)))
  const x = scaleLinear<number>({ domain: [0, max], range: [0, width - margin.left - margin.right], nice: true })
  const y = scaleBand<string>({ domain: rows.map((r) => r.label), range: [0, height - margin.top - margin.bottom], padding: 0.3 })
  return plot(
    width,
    height,
    <Group left={margin.left} top={margin.top}>
      {max === 1 && rows.every((r) => r.segments.every((x) => x.value === 0)) ? (
        <Empty x={(width - margin.left - margin.right) / 2} y={(height - margin.top - margin.bottom) / 2} />
      ) : null}
      {rows.map((r) => {
        let start = 0
        return r.segments.map((s) => {
          const bar = (
            <rect
              key={`${r.label}${s.label}`}
              x={px(x(start))}
              y={px(y(r.label) ?? 0)}
              width={px(x(s.value))}
              height={px(y.bandwidth())}
              fill={tones[s.tone]}
            />
          )
          start += s.value
          return bar
        })
      })}
      <LeftAxis from={0} to={height - margin.top - margin.bottom} ticks={bandTicks(y)} />
      <BottomAxis top={height - margin.top - margin.bottom} from={0} to={width - margin.left - margin.right} ticks={wholeTicks(x, 6)} />
    </Group>,
  )
}

/** Columns per day, stacked, with an optional marker per column (a promised time); `unit` names the left axis. */
export const stackedColumnsPlot = (columns: Column[], unit: string): Plot =>
  remembered(`columns ${unit} ${JSON.stringify(columns)}`, () => drawColumns(columns, unit))

function drawColumns(columns: Column[], unit: string): Plot {
  const width = 560
  const height = 240
  const left = 56
  const innerW = width - left - margin.right
  const innerH = height - margin.top - margin.bottom
  const totals = columns.map((c) =>
    Math.max(
      c.segments.reduce((s, x) => s + x.value, 0),
      c.marker ?? 0,
    ),
  )
  const y = scaleLinear<number>({ domain: [0, Math.max(1, ...totals)], range: [innerH, 0], nice: true })
  const x = scaleBand<string>({ domain: columns.map((c) => c.label), range: [0, innerW], padding: 0.35 })
  return plot(
    width,
    height,
    <Group left={left} top={margin.top}>
      {totals.every((t) => t === 0) ? <Empty x={innerW / 2} y={innerH / 2} /> : null}
      {columns.map((c) => {
        let top = innerH
        return (
          <g key={c.label}>
            {c.segments.map((s) => {
              const h = innerH - y(s.value)
              top -= h
              return (
                <rect key={s.label} x={px(x(c.label) ?? 0)} y={px(top)} width={px(x.bandwidth())} height={px(h)} fill={tones[s.tone]} />
              )
            })}
            {c.value ? (
              <text
                x={(x(c.label) ?? 0) + x.bandwidth() / 2}
                y={Math.min(top, c.marker ? y(c.marker) : innerH) - 6}
                textAnchor="middle"
                fill={INK}
                fontSize={12}
              >
                {c.value}
              </text>
            ) : null}
            {c.marker ? (
              <line
                x1={(x(c.label) ?? 0) - 4}
                x2={(x(c.label) ?? 0) + x.bandwidth() + 4}
                y1={y(c.marker)}
                y2={y(c.marker)}
                stroke={INK}
                strokeWidth={2}
                strokeDasharray="4 3"
              />
            ) : null}
          </g>
        )
      })}
      <LeftAxis from={innerH} to={0} ticks={wholeTicks(y, 5)} label={unit} />
      <BottomAxis top={innerH} from={0} to={innerW} ticks={bandTicks(x)} />
    </Group>,
  )
}

/** A value over time as a step line (a rate holds until the next one is set): two points or more. */
export const stepLinePlot = (points: { at: number; value: number }[]): Plot =>
  remembered(`line ${JSON.stringify(points)}`, () => drawStepLine(points))

function drawStepLine(points: { at: number; value: number }[]): Plot {
  const width = 560
  const height = 200
  const left = 72
  const innerW = width - left - margin.right
  const innerH = height - margin.top - margin.bottom
  const values = points.map((p) => p.value)
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  const pad = (hi - lo) * 0.1 || hi * 0.05 || 1
  const x = scaleTime<number>({ domain: [new Date(points[0]!.at), new Date(points.at(-1)!.at)], range: [0, innerW] })
  const y = scaleLinear<number>({ domain: [lo - pad, hi + pad], range: [innerH, 0], nice: true })
  return plot(
    width,
    height,
    <Group left={left} top={margin.top}>
      <LinePath
        data={points}
        x={(p) => x(new Date(p.at))}
        y={(p) => y(p.value)}
        stroke={tones.info}
        strokeWidth={2}
        curve={curveStepAfter}
      />
      {points.map((p) => (
        <circle key={p.at} cx={x(new Date(p.at))} cy={y(p.value)} r={3} fill={tones.info} />
      ))}
      <AxisLeft
        scale={y}
        numTicks={4}
        stroke={GRID}
        tickStroke={GRID}
        tickLabelProps={() => ({ ...tickLabel, textAnchor: 'end', dy: '0.33em' })}
      />
      <AxisBottom
        top={innerH}
        scale={x}
        numTicks={4}
        stroke={GRID}
        tickStroke={GRID}
        tickFormat={(d) => shortDate(d as Date)}
        tickLabelProps={() => ({ ...tickLabel, textAnchor: 'middle' })}
      />
    </Group>,
  )
}

/** Said inside an empty chart, so a blank plot is not taken for a broken one. */
function Empty({ x, y }: { x: number; y: number }) {
  return (
    <text x={x} y={y} textAnchor="middle" fill={INK} fontSize={14}>
      Nothing yet
    </text>
  )
}

const shortDate = (d: Date) => d.toISOString().slice(5, 10)
