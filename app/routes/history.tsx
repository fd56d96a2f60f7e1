// History (SPEC §2, login; the Orders tab): the person's orders, newest first, ten a page, filtered
// by status with plain links (no JavaScript needed). Each row says the card, what it is worth now,
// where it stands and when it was made, and leads to the order.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { orderStatuses, type OrderStatus } from '#contract/order-statuses'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { List } from '~/components/list-row'
import { OrderRow } from '~/components/order-status'
import { Pager } from '~/components/pager'
import { Screen } from '~/components/screen'
import ordersStyles from '~/styles/screens/orders.css?url'
import { loaded } from '~/upstream/flow.server'
import { orderPageFlow, orderTimeZone } from '~/upstream/orders.server'
import { requireToken } from '~/utils/auth.server'
import { orderStatusLabels, sellingMessages as M } from '~/utils/selling-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(ordersStyles)
export const links = stylesheetLinks(handle)

const PAGE_SIZE = 10

/** The filters, in the order an order moves through them. */
const FILTERS: Array<{ status: OrderStatus | null; label: string }> = [
  { status: null, label: 'All' },
  ...orderStatuses.map((status) => ({ status, label: orderStatusLabels[status] })),
]

function historyHref(status: OrderStatus | null, page = 1) {
  const query = new URLSearchParams()
  if (status) query.set('status', status)
  if (page > 1) query.set('page', String(page))
  const text = query.toString()
  return text ? `/history?${text}` : '/history'
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const url = new URL(request.url)
  const asked = url.searchParams.get('status')
  // An unknown status or page is read as none: the list, not an error page.
  const status = (orderStatuses as readonly string[]).includes(asked ?? '') ? (asked as OrderStatus) : null
  const pageNum = Math.min(Math.max(Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1, 1), 100_000)
  const [page, timeZone] = await Promise.all([
    orderPageFlow(request, context, { pageNum, pageSize: PAGE_SIZE, ...(status && { status }) }),
    orderTimeZone(request, context),
  ])
  return { page: loaded(page), status, timeZone }
}

export default function HistoryScreen() {
  const { page, status, timeZone } = useLoaderData<typeof loader>()
  const lastPage = Math.max(1, Math.ceil(page.total / page.pageSize))
  return (
    <Screen>
      <nav className="cl-filters" aria-label="Show orders">
        <ul className="cl-chips cl-chips--scroll">
          {FILTERS.map((f) => (
            <li key={f.status ?? 'all'}>
              <Link to={historyHref(f.status)} className="cl-chip" aria-current={f.status === status ? 'page' : undefined}>
                {f.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {page.list.length > 0 ? (
        <section className="cl-section" aria-labelledby="history-orders">
          <h2 id="history-orders" className="cl-visually-hidden">
            {status ? `Orders: ${orderStatusLabels[status]}` : 'Your orders'}
          </h2>
          <Card flush>
            <List label={status ? `Orders: ${orderStatusLabels[status]}` : 'Your orders'}>
              {page.list.map((o) => (
                <OrderRow key={o.id} order={o} timeZone={timeZone} />
              ))}
            </List>
          </Card>
          <Pager label="Order pages" pageNum={page.pageNum} lastPage={lastPage} href={(n) => historyHref(status, n)} />
        </section>
      ) : (
        <Card className="cl-empty">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="receipt" size={28} />
          </span>
          <h2 className="cl-empty__title">{status || page.pageNum > 1 ? M.noOrdersFiltered : M.noOrders}</h2>
          <p className="cl-empty__text">{M.noOrdersText}</p>
          {status || page.pageNum > 1 ? (
            <ButtonLink to="/history" variant="secondary" block>
              See all orders
            </ButtonLink>
          ) : null}
          <ButtonLink to="/order/sell" variant="primary" block icon="tag">
            Sell a gift card
          </ButtonLink>
        </Card>
      )}
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
