// An order as the success, history and detail screens show it: its status in words, its timeline
// (every event with its time, then the steps still to come), and its row in the history list.
import { formatMoney } from '#contract/money'
import type { CardStatus, Order, OrderStatus, OrderSummary } from '#contract/orders'
import { cardStatusLabels, orderStatusLabels, orderStepTexts, sellingMessages as M } from '~/utils/selling-messages'
import { BrandTile } from './brand-tile'
import { ButtonLink } from './button'
import { ErrorScreen } from './error-boundary'
import { Icon } from './icon'
import { Link } from './link'
import { Money, When } from './money'
import { cardTypeLabel, countryName } from './rate-row'
import { Timeline, type TimelineStep } from './timeline'

const BADGES: Record<OrderStatus, string> = {
  pending: 'cl-badge--info',
  reviewing: 'cl-badge--info',
  proposed: 'cl-badge--warning',
  completed: 'cl-badge--success',
  rejected: 'cl-badge--error',
  cancelled: '',
  declined: '',
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`cl-badge ${BADGES[status]}`}>{orderStatusLabels[status]}</span>
}

const CARD_BADGES: Record<CardStatus, string> = {
  pending: 'cl-badge--info',
  reviewing: 'cl-badge--info',
  accepted: 'cl-badge--success',
  lowered: 'cl-badge--warning',
  rejected: 'cl-badge--error',
  completed: 'cl-badge--success',
  cancelled: '',
  declined: '',
}

export function CardStatusBadge({ status }: { status: CardStatus }) {
  return <span className={`cl-badge ${CARD_BADGES[status]}`}>{cardStatusLabels[status]}</span>
}

const STEP_TITLES: Record<OrderStatus, string> = {
  pending: 'Submitted',
  reviewing: 'In review',
  proposed: 'Lower offer made',
  completed: 'Paid to your wallet',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  declined: 'Offer declined',
}

const BY: Record<Order['events'][number]['by'], string> = { you: 'by you', operator: 'by our team', system: '' }

/** What is still to come after the order's current status, while it is open. */
const UPCOMING: Partial<Record<OrderStatus, OrderStatus[]>> = {
  pending: ['reviewing', 'completed'],
  reviewing: ['completed'],
  proposed: ['completed'],
}

/** A step still to come, said as a promise. */
const UPCOMING_TEXTS: Partial<Record<OrderStatus, string>> = {
  reviewing: 'Our team checks and redeems the card.',
  completed: 'The payout goes straight to your wallet.',
}

/**
 * Every event of the order, oldest first, with its time and who made it; then, while the order
 * is open, the steps to come. The last event is the current step, or a failed one when it ended
 * without a payout.
 */
export function OrderTimeline({
  order,
  timeZone,
  label = 'Order progress',
}: {
  order: Pick<Order, 'status' | 'events'>
  timeZone: string
  label?: string
}) {
  const last = order.events.length - 1
  const ended = (status: OrderStatus) => status === 'rejected' || status === 'cancelled' || status === 'declined'
  const steps: TimelineStep[] = order.events.map((event, i) => ({
    key: `event-${i}`,
    title: (
      <>
        {STEP_TITLES[event.status]}
        {BY[event.by] ? <span className="cl-timeline__by"> {BY[event.by]}</span> : null}
      </>
    ),
    detail: event.note ?? orderStepTexts[event.status],
    at: <When at={event.at} timeZone={timeZone} />,
    state: i < last ? 'done' : ended(event.status) ? 'failed' : event.status === 'completed' ? 'done' : 'current',
  }))
  for (const status of UPCOMING[order.status] ?? []) {
    steps.push({
      key: `next-${status}`,
      title: STEP_TITLES[status],
      detail:
        status === 'completed' && order.status === 'proposed'
          ? 'If you accept the offer.'
          : (UPCOMING_TEXTS[status] ?? orderStepTexts[status]),
      state: 'upcoming',
    })
  }
  return <Timeline steps={steps} label={label} />
}

/** The amount that matters now: paid, offered, or quoted. */
export function orderAmount(o: Pick<OrderSummary, 'status' | 'quotedPayout' | 'proposedPayout' | 'settledPayout'>): number {
  if (o.status === 'completed' && o.settledPayout !== null) return o.settledPayout
  if (o.status === 'proposed' && o.proposedPayout !== null) return o.proposedPayout
  return o.quotedPayout
}

/** One order in the history: the card, what it is worth now, its status and date (when a time zone is given). */
export function OrderRow({ order: o, timeZone }: { order: OrderSummary; timeZone?: string }) {
  const closed = o.status === 'rejected' || o.status === 'cancelled' || o.status === 'declined'
  return (
    <Link to={`/order/${o.id}`} className="cl-row cl-orderrow">
      <BrandTile brandId={o.brandId} logo={o.logo} size="sm" className="cl-orderrow__tile" />
      <span className="cl-orderrow__name">{o.brandName}</span>
      <span className="cl-orderrow__amount">
        {/* A closed order owes nothing: its quote is not shown as if it were due. */}
        {closed ? (
          <span className="cl-muted">Nothing paid</span>
        ) : (
          <Money amount={orderAmount(o)} currency={o.payoutCurrency} tone={o.status === 'completed' ? 'credit' : 'default'} />
        )}
      </span>
      <span className="cl-orderrow__meta">
        {countryName(o.country)} · {cardTypeLabel(o.cardType)} · {o.cardCount === 1 ? '1 card' : `${o.cardCount} cards`},{' '}
        {formatMoney(o.faceValueTotal, o.currency)}
      </span>
      <span className="cl-orderrow__status">
        <OrderStatusBadge status={o.status} />
        {timeZone ? (
          <span className="cl-orderrow__date">
            <When at={o.createdAt} timeZone={timeZone} />
          </span>
        ) : null}
      </span>
      <Icon name="chevron-right" size={20} className="cl-row__chevron cl-orderrow__chevron" />
    </Link>
  )
}

export function OrderNotFound() {
  return (
    <ErrorScreen
      title={M.orderNotFound}
      heading={M.orderNotFoundHeading}
      text={M.orderNotFoundText}
      icon="info"
      action={
        <ButtonLink to="/history" variant="primary" block>
          See your orders
        </ButtonLink>
      }
    />
  )
}
