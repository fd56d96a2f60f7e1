// Sell Gift Card (SPEC §2, public): brand → country → card type (links, so each choice is a page a
// visitor can share and come back to), then the cards: face value and the e-code, or photos of a
// physical card. The payout shows as you type with JavaScript (payoutFor, the api's own rule) and
// by "Check rate" without it. A visitor who submits signs in and comes back with the choices in the
// URL, never the codes. The quoted rate and a request id from the loader travel as hidden fields:
// a moved rate is shown and confirmed (RATE_CHANGED), a double submit makes one order.
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { MAX_CARDS_PER_ORDER } from '#contract/order-rules'
import { newRequestId } from '#contract/withdrawals'
import { ActionToast } from '~/components/action-toast'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { cardTypeLabel, RateText } from '~/components/rate-row'
import { Screen } from '~/components/screen'
import sellStyles from '~/styles/screens/sell.css?url'
import { giftCardListFlow, giftCardRatesFlow } from '~/upstream/catalogue.server'
import { loaded } from '~/upstream/flow.server'
import { getToken } from '~/utils/auth.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { choiceQuery, faceValueText, HERE, resolveChoice } from './choice'
import { BrandPicker, ChipGroup, ChosenBrand } from './choosers'
import { SellForm } from './sell-form'
import { sellAction } from './sell.server'

export const handle = stylesheetHandle(sellStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const brands = loaded(await giftCardListFlow(request, context))
  const choice = resolveChoice(brands, {
    brandId: url.searchParams.get('brandId'),
    country: url.searchParams.get('country'),
    cardType: url.searchParams.get('cardType'),
  })
  // The rates of the chosen brand: the type chips show theirs, the form uses the chosen one.
  const rates = choice.brand ? loaded(await giftCardRatesFlow(request, context, { brandId: choice.brand.brandId })) : []
  const faceValues = url.searchParams.getAll('faceValue').slice(0, MAX_CARDS_PER_ORDER).map(faceValueText)
  return {
    brands,
    choice,
    rates,
    faceValues,
    requestId: newRequestId(),
    signedIn: Boolean(await getToken(request)),
  }
}

/**
 * After a post to this page the loader stays as it was: the rate on the page is the one the person
 * saw, so a rate that moved meanwhile is said by the action (RATE_CHANGED) and confirmed, never
 * swapped in silently by a reload.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' && formAction?.split('?')[0] === HERE ? false : defaultShouldRevalidate

export const action = ({ request, context }: ActionFunctionArgs) => sellAction(request, context)

export default function SellScreen() {
  const { brands, choice, rates } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { brand, country, offer } = choice
  const rate = offer && country ? (rates.find((r) => r.country === country.country && r.cardType === offer.cardType) ?? null) : null
  return (
    <Screen>
      <ActionToast toast={actionData?.toast} />
      {choice.notice ? (
        <div className="cl-callout cl-callout--warning" role="status">
          <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{choice.notice}</p>
        </div>
      ) : null}
      {brand ? <ChosenBrand brand={brand} /> : <BrandPicker brands={brands} />}
      {brand && country ? (
        <>
          <ChipGroup
            label="Country of the card"
            items={brand.countries.map((c) => ({
              key: c.country,
              to: choiceQuery({ brandId: brand.brandId, country: c.country }),
              label: c.countryName,
              current: c.country === country.country,
            }))}
          />
          <ChipGroup
            label="Card type"
            items={country.cardTypes.map((t) => {
              const r = rates.find((x) => x.country === country.country && x.cardType === t.cardType)
              return {
                key: t.cardType,
                to: choiceQuery({ brandId: brand.brandId, country: country.country, cardType: t.cardType }),
                label: cardTypeLabel(t.cardType),
                sub: r ? <RateText rate={r} /> : undefined,
                current: t.cardType === offer?.cardType,
              }
            })}
          />
        </>
      ) : null}
      {brand && country && offer && rate ? (
        // A new card choice starts a new form: other currency, other fields.
        <SellForm
          key={`${brand.brandId}|${country.country}|${offer.cardType}`}
          brand={brand}
          currency={country.currency}
          offer={offer}
          rate={rate}
        />
      ) : null}
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
