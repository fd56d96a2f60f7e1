import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { staffDeskApi } from '#contract/ops/staff'
import { Link } from '~/components/link'
import { auditChanges, type Change } from '~/ops/audit-changes'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { formatWhen } from '~/ops/format'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const PAGE_SIZE = 25
const FILTERS = ['actor', 'action', 'targetType', 'targetId', 'from', 'to'] as const
type Filters = Record<(typeof FILTERS)[number], string>

/** A calendar day (UTC, as the console shows times) as epoch ms: its start, or its last millisecond. */
function dayMs(day: string, end: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
  const start = Date.parse(`${day}T00:00:00Z`)
  return Number.isNaN(start) ? undefined : end ? start + 86_400_000 - 1 : start
}

/** The audit log, newest first, filtered by actor (an e-mail means that staff member), action, target and days. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const params = new URL(request.url).searchParams
  const filters = Object.fromEntries(FILTERS.map((f) => [f, (params.get(f) ?? '').trim()])) as Filters
  const pageNum = Math.max(1, Math.min(100_000, Number(params.get('page')) || 1))
  const actor =
    filters.actor && filters.actor.includes('@') && !filters.actor.includes(':') ? `staff:${filters.actor.toLowerCase()}` : filters.actor
  const badDay = (filters.from && dayMs(filters.from, false) === undefined) || (filters.to && dayMs(filters.to, true) === undefined)
  const query = {
    pageNum,
    pageSize: PAGE_SIZE,
    actor: actor || undefined,
    action: filters.action || undefined,
    targetType: filters.targetType || undefined,
    targetId: filters.targetId || undefined,
    from: filters.from ? dayMs(filters.from, false) : undefined,
    to: filters.to ? dayMs(filters.to, true) : undefined,
  }
  const result = badDay ? null : await staffFlow(request, context, staffDeskApi.audit, query)
  const error = badDay ? 'Days: choose a date like 2026-01-31' : result && !result.success ? result.msg : null
  const page = result?.success ? result.data : { list: [], total: 0, pageNum, pageSize: PAGE_SIZE }
  const changes = Object.fromEntries(page.list.map((e) => [e.id, auditChanges(e.before, e.after)]))
  return data({ filters, page, changes, error }, { status: error ? 400 : 200 })
}

/** What changed, a line a field: "Status pending → processing", or the value set when there was no before. */
function Changes({ changes }: { changes: Change[] }) {
  if (changes.length === 0) return <span className="ops-muted">No field changed</span>
  return (
    <dl className="ops-changes">
      {changes.map((c) => (
        <div key={c.field}>
          <dt>{c.field}</dt>
          <dd>
            {c.before === null ? (
              c.after
            ) : (
              <>
                <del>{c.before}</del> → <ins>{c.after}</ins>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

export default function AuditLog() {
  const { filters, page, changes, error } = useLoaderData<typeof loader>()
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize))
  const pageLink = (n: number) =>
    `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), page: String(n) })}`
  return (
    <OpsPage title="Audit log">
      <Form method="get" className="ops-form ops-panel" aria-label="Filter the audit log">
        <label>
          Actor (e-mail or name)
          <input name="actor" defaultValue={filters.actor} maxLength={320} />
        </label>
        <label>
          Action
          <input name="action" defaultValue={filters.action} maxLength={64} placeholder="wallet.adjust" />
        </label>
        <label>
          Target type
          <input name="targetType" defaultValue={filters.targetType} maxLength={32} placeholder="user" />
        </label>
        <label>
          Target id
          <input name="targetId" defaultValue={filters.targetId} maxLength={64} />
        </label>
        <label>
          From (UTC day)
          <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label>
          To (UTC day)
          <input name="to" type="date" defaultValue={filters.to} />
        </label>
        <button type="submit" className="ops-button ops-button--primary">
          Filter
        </button>
        <Link to="/ops/audit">Clear</Link>
      </Form>
      {error ? (
        <p className="ops-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="ops-muted">{page.total} entries</p>
      {/* Focusable and named, so the table scrolls by keyboard when it is wider than the page (axe's
          scrollable-region-focusable; a region, not a control, is what WAI's pattern for it is). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="ops-table-wrap" tabIndex={0} role="region" aria-label="Audit log entries">
        <table className="ops-table ops-audit">
          <caption className="cl-visually-hidden">Audit log entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">What changed</th>
            </tr>
          </thead>
          <tbody>
            {page.list.map((e) => (
              <tr key={e.id}>
                <td>{formatWhen(e.at)}</td>
                <td>{e.actor}</td>
                <td>{e.action}</td>
                <td>
                  {e.targetType} {e.targetId}
                </td>
                <td className="ops-audit__changes">
                  <Changes changes={changes[e.id] ?? []} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="ops-pager" aria-label="Audit log pages">
        {page.pageNum > 1 ? <Link to={pageLink(page.pageNum - 1)}>Newer</Link> : null}
        <span>
          Page {page.pageNum} of {pages}
        </span>
        {page.pageNum < pages ? <Link to={pageLink(page.pageNum + 1)}>Older</Link> : null}
      </nav>
    </OpsPage>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
