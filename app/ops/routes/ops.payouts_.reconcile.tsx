// Reconciliation (role payouts): a day's automatic payouts against the provider's transfers, every
// difference listed with what to do. A GET form, so the day is in the address and works without
// JavaScript; the last 7 days (what the daily run checks, decision 038) is a POST, since it
// raises or clears the desk's banner.
import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { opsPayoutsApi, reconcileQuery } from '#contract/ops/money'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import payoutStyles from '~/ops/styles/payouts.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: payoutStyles }]

/** Yesterday in UTC: the last whole day, the usual one to check. */
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const asked = new URL(request.url).searchParams.get('date')
  if (asked === null) return { date: yesterday(), report: null, problem: null }
  const query = reconcileQuery.safeParse({ date: asked.slice(0, 20) })
  if (!query.success) return data({ date: asked.slice(0, 20), report: null, problem: query.error.issues[0].message }, { status: 400 })
  const result = await staffFlow(request, context, opsPayoutsApi.reconcile, query.data)
  if (!result.success) return data({ date: query.data.date, report: null, problem: result.msg }, { status: 503 })
  return { date: query.data.date, report: result.data, problem: null }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const result = await staffFlow(request, context, opsPayoutsApi.reconcileRecent, {})
  if (!result.success) return data({ report: null, problem: result.msg }, { status: 503 })
  const { from, to, ...rest } = result.data
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  return { report: { ...rest, date: `${day(from)} to ${day(to)}` }, problem: null }
}

export default function Reconcile() {
  const loaded = useLoaderData<typeof loader>()
  const recent = useActionData<typeof action>()
  const { date } = loaded
  const report = recent ? recent.report : loaded.report
  const problem = recent ? recent.problem : loaded.problem
  return (
    <OpsPage title="Reconcile payouts" actions={<Link to="/ops/payouts">Back to the payout desk</Link>}>
      <Form method="get" className="ops-panel ops-reconcile-form">
        <label>
          Day
          <input type="date" name="date" defaultValue={date} required aria-describedby={problem ? 'reconcile-problem' : undefined} />
        </label>
        <button type="submit" className="ops-button ops-button--primary">
          Compare
        </button>
      </Form>
      <Form method="post" className="ops-panel ops-reconcile-form">
        <button type="submit" className="ops-button">
          Reconcile the last 7 days now
        </button>
      </Form>
      {problem ? (
        <p className="ops-refusal" id="reconcile-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {report ? <Report report={report} /> : null}
    </OpsPage>
  )
}

type ReportData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['report']>

function Report({ report }: { report: ReportData }) {
  if (report.provider === 'manual')
    return <p className="ops-panel">Payouts are made by hand (PAYOUT_PROVIDER=manual): there is no provider to reconcile with.</p>
  if (report.differences.length === 0 && report.unreadable.length === 0)
    return (
      <p className="ops-panel" role="status">
        {report.date}: {report.checked} payouts checked with {report.provider}, no differences.
      </p>
    )
  return (
    <>
      {report.unreadable.length ? (
        <div className="ops-panel" role="alert">
          <p>
            {report.unreadable.length} {report.unreadable.length === 1 ? 'row' : 'rows'} of {report.provider}’s list could not be read;
            compare them in its dashboard:
          </p>
          <ul>
            {report.unreadable.map((u, i) => (
              <li key={i}>
                {u.reference ?? 'no reference'} ({u.status}, page {u.page}): {u.problem}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.differences.length ? <Differences report={report} /> : null}
    </>
  )
}

function Differences({ report }: { report: ReportData }) {
  return (
    <table className="ops-table">
      <caption className="ops-panel">
        {report.date}: {report.checked} payouts checked with {report.provider}, {report.differences.length}{' '}
        {report.differences.length === 1 ? 'difference' : 'differences'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Ours</th>
          <th scope="col">Provider’s</th>
          <th scope="col">Difference</th>
          <th scope="col">What to do</th>
        </tr>
      </thead>
      <tbody>
        {report.differences.map((d) => (
          <tr key={`${d.reference} ${d.problem}`}>
            <td className="ops-mono">{d.reference}</td>
            <td>{d.ours ?? 'none'}</td>
            <td>{d.theirs ?? 'none'}</td>
            <td>{d.problem}</td>
            <td>{d.action}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

// A role that cannot use this desk reads "Not your desk", not the customers' error page.
export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
