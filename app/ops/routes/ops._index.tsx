import { type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import { peopleDeskApi, type DashboardData } from '#contract/ops/people'
import { Link } from '~/components/link'
import { StackedBars, StackedColumns, type Column, type Segment } from '~/ops/charts'
import { stackedBarsPlot, stackedColumnsPlot } from '~/ops/charts.server'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { opsNav } from '~/ops/desks'
import { formatAge, formatMinutes } from '~/ops/format'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

/** The console's first page: what waits and how late, the week's reviews, today, the books; each role its parts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { role } = await requireStaff(request, context)
  const board = loaded(await staffFlow(request, context, peopleDeskApi.dashboard, {}))
  const wait = waitRows(board)
  const days = board.reviewDays
  // The charts' plots, drawn here so the browser loads no charting library (decision 062).
  const plots = {
    wait: wait.length > 0 ? stackedBarsPlot(wait) : null,
    reviewed: days ? stackedColumnsPlot(reviewedColumns(days), 'orders') : null,
    reviewTime: days ? stackedColumnsPlot(reviewTimeColumns(days), 'minutes') : null,
  }
  return { board, plots, desks: opsNav(role).filter((d) => d.path !== '/ops') }
}

type Plots = Awaited<ReturnType<typeof loader>>['plots']
type Days = NonNullable<DashboardData['reviewDays']>

type Waiting = NonNullable<DashboardData['orders']>

function WaitTile({ title, part, now, to }: { title: string; part: Waiting; now: number; to: string }) {
  return (
    <section className="ops-tile" aria-label={title}>
      <h2 className="ops-tile__label">{title}</h2>
      <p className="ops-tile__value">{part.waiting}</p>
      <p className={part.late ? 'ops-late' : 'ops-tile__note'}>{part.late ? `${part.late} past their ETA` : 'None late'}</p>
      <p className="ops-tile__note">{part.oldestAt === null ? 'Nothing waits' : `Oldest waits ${formatAge(part.oldestAt, now)}`}</p>
      <Link to={to}>Open the desk</Link>
    </section>
  )
}

function TodayTile({ today, currency }: { today: DashboardData['today']; currency: string }) {
  return (
    <section className="ops-tile" aria-label="Today">
      <h2 className="ops-tile__label">Today ({today.day})</h2>
      {today.orders !== null ? (
        <p className="ops-tile__line">
          <strong>{today.orders}</strong> orders made, <strong>{formatMoney(today.credited ?? 0, currency)}</strong> credited
        </p>
      ) : null}
      {today.withdrawalsPaid !== null ? (
        <p className="ops-tile__line">
          <strong>{today.withdrawalsPaid}</strong> withdrawals paid, <strong>{formatMoney(today.paidOut ?? 0, currency)}</strong> paid out
          to banks (after fees)
        </p>
      ) : null}
    </section>
  )
}

function BooksTile({ books }: { books: NonNullable<DashboardData['books']> }) {
  return (
    <section className="ops-tile" aria-label="Books">
      <h2 className="ops-tile__label">Books</h2>
      <p className={books.balanced ? 'ops-tile__value ops-ok' : 'ops-tile__value ops-late'}>
        {books.balanced ? 'Balanced' : 'Out of balance'}
      </p>
      <p className="ops-tile__note">
        {books.balanced
          ? `All ${books.wallets} wallets match their entries`
          : `${books.mismatches} of ${books.wallets} wallets differ from their entries`}
      </p>
    </section>
  )
}

/** What waits, on time and late: the bars of the first chart and its table. */
function waitRows(board: DashboardData): { label: string; waiting: number; late: number; segments: Segment[] }[] {
  const parts = [
    board.orders ? { label: 'Orders', part: board.orders } : null,
    board.withdrawals ? { label: 'Withdrawals', part: board.withdrawals } : null,
  ].filter((r) => r !== null)
  return parts.map((r) => ({
    label: r.label,
    waiting: r.part.waiting,
    late: r.part.late,
    segments: [
      { label: 'Within ETA', value: r.part.waiting - r.part.late, tone: 'ok' },
      { label: 'Late', value: r.part.late, tone: 'late' },
    ],
  }))
}

// The last day is today: named so, as the tile beside it is.
const dayLabel = (days: Days, day: string) => (day === days.at(-1)?.day ? 'Today' : day.slice(5))

const reviewedColumns = (days: Days): Column[] =>
  days.map((d) => ({
    label: dayLabel(days, d.day),
    segments: [
      { label: 'Within ETA', value: d.withinEta, tone: 'ok' },
      { label: 'Late', value: d.reviewed - d.withinEta, tone: 'late' },
    ],
  }))

const reviewTimeColumns = (days: Days): Column[] =>
  days.map((d) => ({
    label: dayLabel(days, d.day),
    segments: [{ label: 'Median review time', value: d.medianMinutes ?? 0, tone: 'info' }],
    marker: d.medianEtaMinutes,
    // A review decided within a minute draws no bar: its figure still shows the day.
    value: d.medianMinutes === null ? undefined : d.medianMinutes === 0 ? '< 1 min' : formatMinutes(d.medianMinutes),
  }))

function WaitChart({ board, plot }: { board: DashboardData; plot: Plots['wait'] }) {
  const rows = waitRows(board)
  if (rows.length === 0 || !plot) return null
  const summary = rows.map((r) => `${r.label}: ${r.waiting} waiting, ${r.late} late.`).join(' ')
  return <StackedBars title="What waits, and how much is late" summary={summary} rows={rows} plot={plot} />
}

function ReviewCharts({ days, plots }: { days: Days; plots: Plots }) {
  const reviewed = days.reduce((s, d) => s + d.reviewed, 0)
  const inTime = days.reduce((s, d) => s + d.withinEta, 0)
  const table = (
    <table className="ops-table">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col" className="ops-num">
            Reviewed
          </th>
          <th scope="col" className="ops-num">
            Within ETA
          </th>
          <th scope="col" className="ops-num">
            Median review time
          </th>
          <th scope="col" className="ops-num">
            Median ETA
          </th>
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.day}>
            <th scope="row">{d.day}</th>
            <td className="ops-num">{d.reviewed}</td>
            <td className="ops-num">{d.withinEta}</td>
            <td className="ops-num">{d.medianMinutes === null ? '—' : formatMinutes(d.medianMinutes)}</td>
            <td className="ops-num">{d.medianEtaMinutes === null ? '—' : formatMinutes(d.medianEtaMinutes)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
  return (
    <>
      {plots.reviewed ? (
        <StackedColumns
          title="Orders reviewed, last 7 days"
          summary={`${reviewed} orders reviewed in 7 days, ${inTime} of them within their ETA.`}
          columns={reviewedColumns(days)}
          table={table}
          plot={plots.reviewed}
        />
      ) : null}
      {plots.reviewTime ? (
        <StackedColumns
          title="Review time against ETA, last 7 days"
          summary="The median minutes from order to decision each day, against the median ETA those orders were promised."
          markerLabel="the median ETA promised"
          columns={reviewTimeColumns(days)}
          table={table}
          plot={plots.reviewTime}
        />
      ) : null}
    </>
  )
}

export default function Dashboard() {
  const { board, plots, desks } = useLoaderData<typeof loader>()
  return (
    <OpsPage title="Dashboard">
      <div className="ops-tiles">
        {board.orders ? <WaitTile title="Orders waiting" part={board.orders} now={board.at} to="/ops/review" /> : null}
        {board.withdrawals ? <WaitTile title="Withdrawals waiting" part={board.withdrawals} now={board.at} to="/ops/payouts" /> : null}
        <TodayTile today={board.today} currency={board.currency} />
        {board.books ? <BooksTile books={board.books} /> : null}
      </div>
      <div className="ops-charts">
        <WaitChart board={board} plot={plots.wait} />
        {board.reviewDays ? <ReviewCharts days={board.reviewDays} plots={plots} /> : null}
      </div>
      <nav className="ops-panel" aria-label="Your desks">
        <h2 className="ops-tile__label">Your desks</h2>
        <ul className="ops-desks">
          {desks.map((d) => (
            <li key={d.path}>
              <Link to={d.path}>{d.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </OpsPage>
  )
}

// A role that cannot use this desk reads "Not your desk", not the customers' error page.
export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
