import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData, useLocation, useNavigate } from '@remix-run/react'
import { catalogueApi } from '#contract/catalogue'
import { formatMoney } from '#contract/money'
import { reviewDeskApi, type QueueData } from '#contract/ops/review'
import { orderStatuses } from '#contract/order-statuses'
import { cardTypes, COUNTRIES } from '#contract/rates'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { formatMinutes, useShortcuts } from '~/ops/review'
import { OpsPage, Pager } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import reviewStyles from '~/ops/styles/review.css?url'
import { upstream } from '~/upstream/client.server'
import { flow } from '~/upstream/flow.server'
import { useLiveData } from '~/utils/live-data'
import { DESK_PAGE_SIZE, pageAsked, paging } from '~/utils/paging'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: reviewStyles }]

const FILTERS = ['brand', 'country', 'type', 'status'] as const

/** The queue: oldest first, the filters of the GET form, what waits, a page of 50. A bad filter or page is said, not a 500. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const url = new URL(request.url)
  const params = url.searchParams
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<(typeof FILTERS)[number], string>
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''))
  const asked = pageAsked(url)
  const [queue, brands] = await Promise.all([
    staffFlow(request, context, reviewDeskApi.queue, { pageNum: asked.pageNum, pageSize: DESK_PAGE_SIZE, ...query } as never),
    flow(context, '', async () => (await upstream.call(catalogueApi.list, {})).data),
  ])
  const empty: QueueData = { list: [], total: 0, pageNum: 1, pageSize: DESK_PAGE_SIZE, waiting: { total: 0, late: 0 } }
  const shown = queue.success ? queue.data : empty
  const problem = asked.problem ?? (queue.success ? null : queue.msg)
  return data(
    {
      filters,
      now: Date.now(),
      queue: shown,
      paging: paging(url, shown),
      problem,
      brands: brands.success ? brands.data.map((b) => ({ id: b.brandId, name: b.name })) : [],
    },
    { status: asked.problem || (!queue.success && queue.status === 400) ? 400 : 200, headers: { 'Cache-Control': 'no-store' } },
  )
}

function Filters({ filters, brands }: Pick<ReturnType<typeof useLoaderData<typeof loader>>, 'filters' | 'brands'>) {
  const select = (name: string, label: string, options: [string, string][]) => (
    <label className="review-filter">
      <span>{label}</span>
      <select name={name} defaultValue={filters[name as keyof typeof filters]}>
        <option value="">Any</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <Form method="get" className="review-filters" aria-label="Filter the queue">
      {select(
        'brand',
        'Brand',
        brands.map((b) => [b.id, b.name]),
      )}
      {select(
        'country',
        'Country',
        Object.entries(COUNTRIES).map(([code, c]) => [code, c.name]),
      )}
      {select(
        'type',
        'Type',
        cardTypes.map((t) => [t, t === 'ecode' ? 'E-code' : 'Physical']),
      )}
      {select(
        'status',
        'Status',
        orderStatuses.map((s) => [s, s]),
      )}
      <button type="submit" className="ops-button">
        Filter
      </button>
    </Form>
  )
}

export default function ReviewQueue() {
  const { filters, now, queue, paging: pages, problem, brands } = useLoaderData<typeof loader>()
  const location = useLocation()
  const navigate = useNavigate()
  useLiveData(15_000)
  useShortcuts({ o: queue.list[0] ? () => navigate(`/ops/review/${queue.list[0].id}`) : undefined })
  const here = `${location.pathname}${location.search}`
  return (
    <OpsPage
      title="Review desk"
      actions={
        <Link to={here} className="ops-button ops-button--ghost">
          Refresh
        </Link>
      }
    >
      <p className="review-count" role="status">
        <span>
          <strong>{queue.waiting.total}</strong> waiting
        </span>
        {queue.waiting.late > 0 ? (
          <span className="ops-late review-count__late">{queue.waiting.late} late</span>
        ) : (
          <span className="review-caption">none late</span>
        )}
      </p>
      <Filters filters={filters} brands={brands} />
      {problem ? (
        <p className="review-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {queue.list.length === 0 ? (
        <p className="ops-panel">Nothing waits here.</p>
      ) : (
        <div className="review-table-wrap">
          <table className="ops-table review-queue">
            <caption className="review-caption">Oldest first. Press o to open the first order.</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Card</th>
                <th scope="col" className="ops-num">
                  Payout
                </th>
                <th scope="col">Waited / ETA</th>
                <th scope="col">Status</th>
                <th scope="col">Claim</th>
              </tr>
            </thead>
            <tbody>
              {queue.list.map((o) => (
                <tr key={o.id} className={o.late ? 'review-row--late' : undefined}>
                  <td>
                    <Link to={`/ops/review/${o.id}`}>{o.orderNo}</Link>
                  </td>
                  <td>
                    {o.brandName} · {o.country} · {o.cardType === 'ecode' ? 'E-code' : 'Physical'} · {o.cardCount}{' '}
                    {o.cardCount === 1 ? 'card' : 'cards'}
                  </td>
                  <td className="ops-num">{formatMoney(o.quotedPayout, o.payoutCurrency)}</td>
                  <td>
                    {o.late ? <span className="ops-late">Late</span> : null} {formatMinutes(o.ageMinutes)} /{' '}
                    {formatMinutes(o.queue?.etaMinutes ?? 0)}
                  </td>
                  <td>{o.status}</td>
                  <td>
                    {o.claimedBy && o.status === 'reviewing' && (o.claimExpiresAt ?? 0) > now ? o.claimedBy.replace(/^staff:/, '') : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {queue.total > 0 ? <Pager paging={pages} label="Pages of the queue" /> : null}
    </OpsPage>
  )
}

// A role that cannot use this desk reads "Not your desk", not the customers' error page.
export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
