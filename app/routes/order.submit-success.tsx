// Order Submitted (SPEC §2, login): what was just sold — the order number, the payout at the locked
// rate, the brand's review time and the order's place in the queue — and what happens next. The
// first successful order is recorded for analytics once per person (SPEC §4) by the browser's
// collector on the order-submitted toast and by the api when the first order completes; this
// page asks the api nothing more than the order. Where push can be turned on on this device and is
// not on yet, a card offers it (the browser decides; it asks nothing until tapped).
import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { BrandTile } from '~/components/brand-tile'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { InfoList, InfoRow } from '~/components/list-row'
import { Money, When, zoneName } from '~/components/money'
import { OrderNotFound, OrderTimeline } from '~/components/order-status'
import { PushOptIn } from '~/components/push-opt-in'
import { cardTypeLabel, countryName, RateText } from '~/components/rate-row'
import { Screen } from '~/components/screen'
import ordersStyles from '~/styles/screens/orders.css?url'
import { submittedOrderPage } from '~/upstream/orders.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(ordersStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await submittedOrderPage(request, context, new URL(request.url).searchParams.get('id') ?? '')
}

export default function SubmitSuccessScreen() {
  const { order: o, timeZone } = useLoaderData<typeof loader>()
  const cards = o.cardCount === 1 ? '1 card' : `${o.cardCount} cards`
  return (
    <Screen backTo="/order/sell">
      <section className="cl-result cl-result--success" aria-labelledby="success-title">
        <span className="cl-icon-tile" aria-hidden="true">
          <Icon name="check-circle" size={32} />
        </span>
        <h2 id="success-title" className="cl-result__title">
          Order submitted
        </h2>
        <p className="cl-result__text">
          Order <strong className="cl-orderno">{o.orderNo}</strong>: {o.brandName} {countryName(o.country)}{' '}
          {cardTypeLabel(o.cardType).toLowerCase()}, {cards}.
        </p>
        <p className="cl-figure__label">You get, at the locked rate</p>
        <Money amount={o.quotedPayout} currency={o.payoutCurrency} size="hero" />
        <p className="cl-result__text cl-muted">
          <RateText rate={{ rate: o.quotedRate, currency: o.currency, payoutCurrency: o.payoutCurrency }} />
        </p>
      </section>

      {o.queue ? (
        <Card title="Review" className="cl-queue">
          <div className="cl-queue__head">
            <BrandTile brandId={o.brandId} logo={o.logo} />
            <p className="cl-queue__place">{o.queue.position === 1 ? 'Next in the queue' : `Number ${o.queue.position} in the queue`}</p>
          </div>
          <InfoList>
            <InfoRow label="Reviews of this card take" value={`about ${o.queue.etaMinutes} minutes`} />
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

      <Card title="What happens next">
        <OrderTimeline order={o} timeZone={timeZone} label="What happens next" />
        <p className="cl-promise-note">
          <Icon name="info" size={16} /> If a card is worth less than quoted, we ask you first: you accept the lower payout or decline and
          the card is not redeemed. Every decision comes with its reason.
        </p>
      </Card>

      {/* Push on this device: shown by the browser only where it can be turned on and is not on yet. */}
      <PushOptIn variant="card" />

      <div className="cl-stack cl-section">
        <ButtonLink to={`/order/${o.id}`} variant="primary" block>
          See the order
        </ButtonLink>
        <ButtonLink to="/order/sell" variant="secondary" block icon="plus">
          Sell another card
        </ButtonLink>
      </div>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <OrderNotFound /> }} />
}
