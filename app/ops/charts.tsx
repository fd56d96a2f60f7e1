// The console's charts (decisions 020, 062). Each is a <figure> whose SVG has a <title> and a
// description, and whose numbers are also a table under "Show the numbers" for a screen reader or
// a precise look. The plot inside the SVG is drawn on the server with visx (charts.server.tsx) and
// arrives as markup in the loader's data: a chart is read, never touched, so the browser needs none
// of visx or d3 to show it, on the first visit or after a navigation.
import { useId, type ReactNode } from 'react'

/** A plot drawn by charts.server.tsx: the SVG's size and what goes inside it. */
export type Plot = { width: number; height: number; markup: string }

export type Tone = 'ok' | 'late' | 'info'
export type Segment = { label: string; value: number; tone: Tone }

/** `value`: written above the column when given, so a day whose bar is too short to see still says it. */
export type Column = { label: string; segments: Segment[]; marker?: number | null; value?: string }

export const tones: Record<Tone, string> = { ok: '#15803d', late: '#b91c1c', info: '#2563eb' }

function ChartFigure({
  title,
  summary,
  plot,
  table,
  children,
}: {
  title: string
  summary: string
  plot: Plot
  table: ReactNode
  children?: ReactNode
}) {
  const id = useId()
  return (
    <figure className="ops-chart">
      <figcaption className="ops-chart__title">{title}</figcaption>
      <svg viewBox={`0 0 ${plot.width} ${plot.height}`} className="ops-chart__svg" role="img" aria-labelledby={`${id}t ${id}d`}>
        <title id={`${id}t`}>{title}</title>
        <desc id={`${id}d`}>{summary}</desc>
        {/* Our own server's drawing of our own numbers: its text is React's, escaped there. */}
        <g dangerouslySetInnerHTML={{ __html: plot.markup }} />
      </svg>
      {children}
      <details className="ops-chart__numbers">
        <summary>Show the numbers</summary>
        <p className="ops-chart__summary">{summary}</p>
        {table}
      </details>
    </figure>
  )
}

function Legend({ items }: { items: { label: string; tone: Tone }[] }) {
  return (
    <ul className="ops-chart__legend" aria-hidden="true">
      {items.map((i) => (
        <li key={i.label}>
          <span className="ops-chart__swatch" style={{ background: tones[i.tone] }} />
          {i.label}
        </li>
      ))}
    </ul>
  )
}

/** Horizontal bars, each split into segments (on time, late): "what waits and how late". */
export function StackedBars({
  title,
  summary,
  rows,
  plot,
}: {
  title: string
  summary: string
  rows: { label: string; segments: Segment[] }[]
  plot: Plot
}) {
  const legend = rows[0]?.segments.map((s) => ({ label: s.label, tone: s.tone })) ?? []
  const table = (
    <table className="ops-table">
      <thead>
        <tr>
          <th scope="col">What</th>
          {legend.map((l) => (
            <th key={l.label} scope="col" className="ops-num">
              {l.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row">{r.label}</th>
            {r.segments.map((s) => (
              <td key={s.label} className="ops-num">
                {s.value}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
  return (
    <ChartFigure title={title} summary={summary} plot={plot} table={table}>
      <Legend items={legend} />
    </ChartFigure>
  )
}

/** Columns per day, stacked, with an optional marker per column (a promised time). */
export function StackedColumns({
  title,
  summary,
  columns,
  markerLabel,
  table,
  plot,
}: {
  title: string
  summary: string
  columns: Column[]
  markerLabel?: string
  table: ReactNode
  plot: Plot
}) {
  const legend = columns[0]?.segments.map((s) => ({ label: s.label, tone: s.tone })) ?? []
  return (
    <ChartFigure title={title} summary={summary} plot={plot} table={table}>
      <Legend items={legend} />
      {markerLabel ? <p className="ops-chart__note">Dashed line: {markerLabel}</p> : null}
    </ChartFigure>
  )
}

/** A value over time as a step line (a rate holds until the next one is set). */
export function StepLine({ title, summary, table, plot }: { title: string; summary: string; table: ReactNode; plot: Plot }) {
  return <ChartFigure title={title} summary={summary} plot={plot} table={table} />
}
