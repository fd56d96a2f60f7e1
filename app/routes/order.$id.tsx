// Order Detail (SPEC §2, login): everything about one order, so no decision feels arbitrary — each
// card's status and payout (quoted, offered, paid) line by line, the reason and the operator's note
// and proof photo of a rejection, the whole timeline, the place in the queue while it waits. The
// person's moves: cancel while pending, and accept or decline an offer of a lower payout (never a
// silent edit). Cancel and decline ask "are you sure" with a disclosure, without JavaScript too.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { formatMoney } from '#contract/money'
import type { Order, OrderCard } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { BrandTile } from '~/components/brand-tile'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FormError } from '~/components/forms'
import { Icon } from '~/components/icon'
import { InfoList, InfoRow } from '~/components/list-row'
import { Money, When, zoneName } from '~/components/money'
import { CardStatusBadge, OrderNotFound, OrderStatusBadge, OrderTimeline } from '~/components/order-status'
import { cardTypeLabel, countryName, RateText } from '~/components/rate-row'
import { ActionBar, Screen } from '~/components/screen'
import ordersStyles from '~/styles/screens/orders.css?url'
import { loadOrder, orderMoveFlow, orderTimeZone, plausibleOrderId } from '~/upstream/orders.server'
import { requireToken } from '~/utils/auth.server'
import { isTransportFailure, readForm, toastNow } from '~/utils/form.server'
import { flowMessage } from '~/utils/messages'
import { sellingMessages as M } from '~/utils/selling-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast, type Toast } from '~/utils/toast.server'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(ordersStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const [order, timeZone] = await Promise.all([loadOrder(request, context, params.id ?? ''), orderTimeZone(request, context)])
  return { order, timeZone }
}

const moveSchema = z.object({ intent: z.enum(['cancel', 'accept', 'decline']) })

type MoveReply = { error: string | null; toast: Toast | null }

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireToken(request)
  const id = params.id ?? ''
  const parsed = moveSchema.safeParse(Object.fromEntries(await readForm(context, request)))
  // Beside the buttons; a toast as well only when it was not the order's answer (the api away, busy).
  const refused = (error: string, toast = false) =>
    data<MoveReply>({ error, toast: toast ? toastNow({ type: 'error', message: error }) : null }, { status: 400 })
  if (!parsed.success) return refused('Choose what to do with the order')
  const notFound = () => data({ message: M.orderNotFound }, { status: 404 })
  if (!plausibleOrderId(id)) throw notFound()
  const move = parsed.data.intent
  const result = await orderMoveFlow(request, context, move, id)
  if (!result.success) {
    if (result.code === Refusals.ORDER_NOT_FOUND.code || result.code === 400) throw notFound()
    return refused(flowMessage(result), isTransportFailure(result))
  }
  const o = result.data
  const message =
    move === 'cancel'
      ? M.orderCancelled
      : move === 'accept'
        ? M.proposalAccepted(formatMoney(o.settledPayout ?? o.proposedPayout ?? 0, o.payoutCurrency))
        : M.proposalDeclined
  return redirectWithToast(request, `/order/${encodeURIComponent(o.id)}`, { type: 'success', message })
}

export default function OrderDetailScreen() {
  const { order: o, timeZone } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // Without a chat provider the question is a support conversation about this order (decision 049).
  const askHref = usePublicEnv().chatWidgetUrl ? '/support' : `/support/new?${new URLSearchParams({ order: o.id })}`
  return (
    <Screen backTo="/history">
      <ActionToast toast={actionData?.toast} />
      <OrderHead order={o} />
      {actionData?.error ? <FormError errors={[actionData.error]} /> : null}
      {o.status === 'proposed' && o.proposal ? <Proposal order={o} timeZone={timeZone} /> : null}
      {o.status === 'rejected' ? <Rejection order={o} /> : null}
      {o.status === 'completed' && o.operatorNote ? (
        <div className="cl-callout cl-callout--success">
          <Icon name="info" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p className="cl-callout__title">Note from our team</p>
            <p>{o.operatorNote}</p>
          </div>
        </div>
      ) : null}
      {o.queue ? (
        <Card title="In the queue">
          <InfoList>
            <InfoRow label="Place" value={o.queue.position === 1 ? 'Next' : `Number ${o.queue.position}`} />
            <InfoRow label="Reviews take" value={`about ${o.queue.etaMinutes} minutes`} />
            <InfoRow
              label="Expected by"
              value={
                <>
                  <When at={o.queue.expectedBy} timeZone={timeZone} /> <span className="cl-zone">{zoneName(timeZone)}</span>
                </>
              }
            />
          </InfoList>
        </Card>
      ) : null}
      <Card title={o.cards.length === 1 ? 'The card' : `The ${o.cards.length} cards`} flush>
        <ul className="cl-ordercards">
          {o.cards.map((card) => (
            <OrderCardItem key={card.cardId} card={card} order={o} />
          ))}
        </ul>
      </Card>
      <Card title="Payout">
        <PayoutLines order={o} />
      </Card>
      <Card title="Timeline">
        <OrderTimeline order={o} timeZone={timeZone} />
      </Card>
      {o.status === 'pending' ? <CancelOrder /> : null}
      {/* What to do next: take the money out, or ask about a refusal. */}
      {o.status === 'completed' ? (
        <ActionBar>
          <ButtonLink to="/wallet/withdraw" variant="primary" block>
            Withdraw
          </ButtonLink>
        </ActionBar>
      ) : o.status === 'rejected' ? (
        <ActionBar>
          <ButtonLink to={askHref} variant="secondary" icon="chat" block>
            Ask about this order
          </ButtonLink>
        </ActionBar>
      ) : null}
    </Screen>
  )
}

function OrderHead({ order: o }: { order: Order }) {
  const paid = o.status === 'completed' && o.settledPayout !== null
  const offered = o.status === 'proposed' && o.proposedPayout !== null
  const nothing = o.status === 'rejected' || o.status === 'cancelled' || o.status === 'declined'
  return (
    <section className="cl-orderhead" aria-labelledby="order-title">
      <div className="cl-orderhead__brand">
        <BrandTile brandId={o.brandId} logo={o.logo} size="lg" />
        <div className="cl-orderhead__text">
          <h2 id="order-title" className="cl-orderhead__name">
            {o.brandName}
          </h2>
          <p className="cl-orderhead__meta">
            {countryName(o.country)} · {cardTypeLabel(o.cardType)}
          </p>
          <p className="cl-orderhead__meta">
            <span className="cl-orderno">{o.orderNo}</span> <OrderStatusBadge status={o.status} />
          </p>
        </div>
      </div>
      <p className="cl-figure__label">
        {paid ? 'Paid to your wallet' : offered ? 'Offered to you' : nothing ? 'Quoted, not paid' : 'Quoted payout'}
      </p>
      <Money
        amount={paid ? o.settledPayout! : offered ? o.proposedPayout! : o.quotedPayout}
        currency={o.payoutCurrency}
        size="hero"
        tone={nothing ? 'muted' : paid ? 'credit' : 'default'}
      />
    </section>
  )
}

/** The offer, side by side with the quote and its reason; the person decides. */
function Proposal({ order: o, timeZone }: { order: Order; timeZone: string }) {
  const proposal = o.proposal!
  const offered = o.proposedPayout ?? proposal.payout
  return (
    <section className="cl-callout cl-callout--warning cl-proposal" aria-labelledby="proposal-title">
      <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
      <div className="cl-callout__body">
        <h2 id="proposal-title" className="cl-callout__title">
          We can pay less than the quote
        </h2>
        <p>{proposal.reason}</p>
        <dl className="cl-proposal__figures">
          <div>
            <dt>Quoted</dt>
            <dd>
              <Money amount={o.quotedPayout} currency={o.payoutCurrency} tone="muted" />
            </dd>
          </div>
          <div>
            <dt>Offered</dt>
            <dd>
              <Money amount={offered} currency={o.payoutCurrency} />
            </dd>
          </div>
        </dl>
        {o.operatorNote && o.operatorNote !== proposal.reason ? (
          <p className="cl-proposal__note">Note from our team: {o.operatorNote}</p>
        ) : null}
        <p className="cl-small">
          Accept and {formatMoney(offered, o.payoutCurrency)} goes to your wallet. Decline and we do not redeem the card: it stays yours.
        </p>
        <p className="cl-small">
          <strong>
            Answer by <When at={proposal.answerBy} timeZone={timeZone} />, {zoneName(timeZone)}.
          </strong>{' '}
          Without an answer by then the offer lapses as if declined: nothing is paid and the card stays yours.
        </p>
        <Form method="post" className="cl-proposal__accept">
          <Button type="submit" name="intent" value="accept" variant="primary" block>
            Accept {formatMoney(offered, o.payoutCurrency)}
          </Button>
        </Form>
        <details className="cl-confirm">
          <summary className="cl-button cl-button--secondary cl-button--block">Decline the offer</summary>
          <Form method="post" className="cl-confirm__body">
            <p>Nothing is paid and the order closes. You keep the card.</p>
            <Button type="submit" name="intent" value="decline" variant="danger" block>
              Yes, decline the offer
            </Button>
          </Form>
        </details>
      </div>
    </section>
  )
}

function Rejection({ order: o }: { order: Order }) {
  return (
    <section className="cl-callout cl-callout--error" aria-labelledby="rejection-title">
      <Icon name="x-circle" size={20} className="cl-callout__icon" />
      <div className="cl-callout__body">
        <h2 id="rejection-title" className="cl-callout__title">
          Why the card was rejected
        </h2>
        <p>{o.rejection?.reasonText ?? 'See the note from our team.'}</p>
        {o.operatorNote ? <p className="cl-proposal__note">Note from our team: {o.operatorNote}</p> : null}
        {o.proofImageId ? (
          <figure className="cl-proof">
            <a href={`/file/${o.proofImageId}`} target="_blank" rel="noreferrer">
              <img
                src={`/file/${o.proofImageId}`}
                alt="What our team saw when redeeming the card"
                className="cl-proof__img"
                loading="lazy"
              />
            </a>
            <figcaption className="cl-small">What our team saw (tap to open)</figcaption>
          </figure>
        ) : null}
      </div>
    </section>
  )
}

function OrderCardItem({ card, order: o }: { card: OrderCard; order: Order }) {
  const money = (n: number, tone?: 'muted' | 'credit') => <Money amount={n} currency={o.payoutCurrency} tone={tone} />
  return (
    <li className="cl-ordercard">
      <div className="cl-ordercard__head">
        <h3 className="cl-ordercard__title">
          Card {card.position} · {formatMoney(card.faceValue, o.currency)}
        </h3>
        <CardStatusBadge status={card.status} />
      </div>
      {card.maskedCodes.length > 0 ? (
        <p className="cl-ordercard__codes">
          <span className="cl-visually-hidden">Code, hidden but its last characters: </span>
          {card.maskedCodes.join('  ')}
        </p>
      ) : null}
      {card.imageIds.length > 0 ? (
        <ul className="cl-photos__list" aria-label={`Photos of card ${card.position}`}>
          {card.imageIds.map((id, n) => (
            <li key={id} className="cl-photo">
              <a href={`/file/${id}`} target="_blank" rel="noreferrer">
                <img
                  src={`/file/${id}`}
                  alt={`Card ${card.position}, ${n + 1} of ${card.imageIds.length}`}
                  className="cl-photo__img"
                  width={80}
                  height={80}
                  loading="lazy"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <InfoList className="cl-ordercard__lines">
        <InfoRow
          label="Quoted"
          value={money(card.quotedPayout, card.proposedPayout !== null || card.settledPayout === 0 ? 'muted' : undefined)}
        />
        {card.proposedPayout !== null ? <InfoRow label="Offered" value={money(card.proposedPayout)} /> : null}
        {card.settledPayout !== null ? (
          <InfoRow label="Paid" value={money(card.settledPayout, card.settledPayout > 0 ? 'credit' : 'muted')} />
        ) : null}
      </InfoList>
      {card.reasonText ? <p className="cl-ordercard__reason">{card.reasonText}</p> : null}
    </li>
  )
}

function PayoutLines({ order: o }: { order: Order }) {
  const money = (n: number) => <Money amount={n} currency={o.payoutCurrency} />
  return (
    <InfoList>
      <InfoRow
        label="Locked rate"
        value={<RateText rate={{ rate: o.quotedRate, currency: o.currency, payoutCurrency: o.payoutCurrency }} />}
      />
      <InfoRow label="Face value" value={formatMoney(o.faceValueTotal, o.currency)} />
      <InfoRow label="Quoted payout" value={money(o.quotedPayout)} />
      {o.proposedPayout !== null ? <InfoRow label="Offered payout" value={money(o.proposedPayout)} /> : null}
      {o.settledPayout !== null ? <InfoRow label="Paid to your wallet" value={money(o.settledPayout)} /> : null}
    </InfoList>
  )
}

function CancelOrder() {
  return (
    <details className="cl-confirm cl-section">
      <summary className="cl-button cl-button--secondary cl-button--block">Cancel the order</summary>
      <Form method="post" className="cl-confirm__body">
        <p>The order leaves the queue before anyone reviews it. You can sell the card again later.</p>
        <Button type="submit" name="intent" value="cancel" variant="danger" block>
          Yes, cancel the order
        </Button>
      </Form>
    </details>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <OrderNotFound /> }} />
}
