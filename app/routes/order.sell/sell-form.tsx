// The sell form of one chosen card: the cards (face value, then the code or photos), the payout as
// typed, and the submit. Without JavaScript its own buttons post (add, remove, check rate) and each
// answer is a new page; with it they change the list in place.
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useCallback, useState, type FormEvent } from 'react'
import type { Brand, CardTypeOffer, Rate } from '#contract/catalogue'
import { formatMoney } from '#contract/money'
import { MAX_CARDS_PER_ORDER } from '#contract/order-rules'
import { Button } from '~/components/button'
import { answerRefusals, FormError, useErrorAction } from '~/components/forms'
import { Icon } from '~/components/icon'
import { PhotoPicker } from '~/components/photo-picker'
import { RateText } from '~/components/rate-row'
import { ActionBar } from '~/components/screen'
import { useHydrated } from '~/components/ui'
import { sellingMessages as M } from '~/utils/selling-messages'
import { CodeFields, FaceValueField } from './card-fields'
import { choiceQuery, HERE, payoutOf, type CardState } from './choice'
import type { action, loader } from './route'

const FORM_ERROR_ID = 'sell-form-error'

/** "Card 2: " for a field of the second card (`cards[1].code`). */
const cardOf = (name: string) => {
  const i = /^cards\[(\d+)\]/.exec(name)?.[1]
  return i === undefined ? '' : `Card ${Number(i) + 1}: `
}

type FormCard = CardState & { key: string }
let cardKeys = 0
const withKey = (c: CardState): FormCard => ({ ...c, key: `card-${++cardKeys}` })
type Payout = ReturnType<typeof payoutOf>

/**
 * The rate to quote: the one shown, until the api says it moved; then the new one, shown and kept
 * (another refusal after it does not bring the old one back). The same for the request id.
 */
function useQuote(loadedRate: Rate) {
  const { faceValues, requestId: loadedRequestId } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [rate, setRate] = useState(actionData?.newRate ?? loadedRate)
  const [requestId, setRequestId] = useState(actionData?.requestId ?? loadedRequestId)
  const [seen, setSeen] = useState(actionData)
  if (actionData !== seen) {
    setSeen(actionData)
    if (actionData?.newRate) setRate(actionData.newRate)
    if (actionData?.requestId) setRequestId(actionData.requestId)
  }
  const initial =
    actionData?.cards ??
    (faceValues.length ? faceValues.map((faceValue) => ({ faceValue, imageIds: [] })) : [{ faceValue: '', imageIds: [] }])
  // Without JavaScript each answer is a new page, drawn from the server's list; with it, this state
  // is the list (the page's buttons change it in place, and answers keep it).
  const [cards, setCards] = useState<FormCard[]>(() => initial.map(withKey))
  return { rate, requestId, cards, setCards }
}

export function SellForm({
  brand,
  currency,
  offer,
  rate: loadedRate,
}: {
  brand: Brand
  currency: string
  offer: CardTypeOffer
  rate: Rate
}) {
  const { signedIn } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const hydrated = useHydrated()
  const { rate, requestId, cards, setCards } = useQuote(loadedRate)
  const { onPending, onSubmit, waitMessage } = usePhotoWait()
  const isEcode = offer.cardType === 'ecode'
  const payouts = cards.map((c) => payoutOf(c.faceValue, offer, currency, rate))
  const total = payouts.every((p) => p.payout !== null) ? payouts.reduce((sum, p) => sum + (p.payout ?? 0), 0) : null
  const formError = useFormRefusals(actionData)
  // The choices stay in the URL, so a page drawn by the server after a post (without
  // JavaScript) is this card's page again, with the answer.
  const errorAction = useErrorAction(
    FORM_ERROR_ID,
    choiceQuery({ brandId: brand.brandId, country: rate.country, cardType: offer.cardType }),
  )
  return (
    <Form
      method="post"
      action={errorAction}
      // Files travel with the form only without JavaScript; with it they are uploaded one by one.
      encType={!hydrated && !isEcode && signedIn ? 'multipart/form-data' : undefined}
      className="cl-form cl-sellform"
      onSubmit={onSubmit}
      aria-describedby={formError ? FORM_ERROR_ID : undefined}
    >
      <Quote brandId={brand.brandId} cardType={offer.cardType} rate={rate} requestId={requestId} />

      {/* Only a page drawn by the server lost the codes; with JavaScript they are still in their fields. */}
      {actionData?.codesCleared && !hydrated ? <Callout text={M.codesCleared} /> : null}

      {cards.map((card, i) => (
        <CardFieldset
          key={card.key}
          card={card}
          index={i}
          count={cards.length}
          offer={offer}
          currency={currency}
          payout={payouts[i]}
          payoutCurrency={rate.payoutCurrency}
          onFaceValue={(faceValue) => setCards((all) => all.map((c) => (c.key === card.key ? { ...c, faceValue } : c)))}
          onRemove={() => setCards((all) => all.filter((c) => c.key !== card.key))}
          onPending={(n) => onPending(card.key, n)}
        />
      ))}

      {cards.length < MAX_CARDS_PER_ORDER ? (
        <AddCardButton
          onAdd={() => setCards((all) => [...all, withKey({ faceValue: all[all.length - 1]?.faceValue ?? '', imageIds: [] })])}
        />
      ) : null}

      {!signedIn ? <Callout text={M.signInToSell} /> : null}
      <SellSummary count={cards.length} total={total} payoutCurrency={rate.payoutCurrency} />

      {formError ? (
        <FormError id={FORM_ERROR_ID} errors={formError}>
          {actionData?.newRate ? <p className="cl-sellform__confirm">{M.rateChangedConfirm} below, or change the cards.</p> : null}
        </FormError>
      ) : null}
      {waitMessage ? <FormError errors={[waitMessage]} /> : null}
      <SellActions count={cards.length} total={total} payoutCurrency={rate.payoutCurrency} />
    </Form>
  )
}

/**
 * A refusal of one card's field is said beside it and again in the form's error box, naming the
 * card: the fragment and the focus need one place that every refused answer has.
 */
function useFormRefusals(actionData: ReturnType<typeof useActionData<typeof action>>) {
  const formErrors = answerRefusals(
    actionData?.formError ? [actionData.formError] : [],
    Object.fromEntries(Object.entries(actionData?.errors ?? {}).map(([name, list]) => [name, list.map((e) => `${cardOf(name)}${e}`)])),
  )
  return formErrors.length ? formErrors : null
}

/** A sell while photos are still uploading waits, and says so; the page's other buttons do not. */
function usePhotoWait() {
  const [pendingPhotos, setPendingPhotos] = useState<Record<string, number>>({})
  const [waitMessage, setWaitMessage] = useState<string | null>(null)
  const photosPending = Object.values(pendingPhotos).reduce((a, b) => a + b, 0)
  const onPending = useCallback((key: string, n: number) => setPendingPhotos((all) => (all[key] === n ? all : { ...all, [key]: n })), [])
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    if ((submitter?.value ?? 'sell') === 'sell' && photosPending > 0) {
      event.preventDefault()
      setWaitMessage(M.photosUploading)
    } else setWaitMessage(null)
  }
  return { onPending, onSubmit, waitMessage }
}

/** The card chosen and the rate quoted, as the action reads them back, and the rate as the person sees it. */
function Quote({ brandId, cardType, rate, requestId }: { brandId: string; cardType: string; rate: Rate; requestId: string }) {
  return (
    <>
      <input type="hidden" name="brandId" value={brandId} />
      <input type="hidden" name="country" value={rate.country} />
      <input type="hidden" name="cardType" value={cardType} />
      <input type="hidden" name="quotedRate" value={rate.rate} />
      <input type="hidden" name="requestId" value={requestId} />
      <p className="cl-sellform__rate">
        <span className="cl-sellform__rate-label">Rate now</span>
        <RateText rate={rate} />
      </p>
    </>
  )
}

function Callout({ text }: { text: string }) {
  return (
    <div className="cl-callout cl-callout--neutral">
      <Icon name="lock" size={20} className="cl-callout__icon" />
      <p className="cl-callout__body">{text}</p>
    </div>
  )
}

type CardFieldsetProps = {
  card: FormCard
  index: number
  count: number
  offer: CardTypeOffer
  currency: string
  payout: Payout
  payoutCurrency: string
  onFaceValue: (value: string) => void
  onRemove: () => void
  onPending: (n: number) => void
}

function CardFieldset({
  card,
  index: i,
  count,
  offer,
  currency,
  payout,
  payoutCurrency,
  onFaceValue,
  onRemove,
  onPending,
}: CardFieldsetProps) {
  const { signedIn } = useLoaderData<typeof loader>()
  const errors = useActionData<typeof action>()?.errors ?? {}
  const hydrated = useHydrated()
  const prefix = `cards[${i}]`
  const removeClass = 'cl-link cl-link--touch cl-sellcard__remove'
  return (
    <fieldset className="cl-card cl-sellcard">
      <legend className="cl-visually-hidden">Card {i + 1}</legend>
      <div className="cl-sellcard__head" aria-hidden="true">
        <span className="cl-sellcard__title">Card {i + 1}</span>
      </div>
      {count > 1 ? (
        hydrated ? (
          <button type="button" className={removeClass} onClick={onRemove}>
            Remove card {i + 1}
          </button>
        ) : (
          <button type="submit" name="intent" value={`remove:${i}`} formNoValidate className={removeClass}>
            Remove card {i + 1}
          </button>
        )
      ) : null}
      <FaceValueField
        prefix={prefix}
        position={i + 1}
        offer={offer}
        currency={currency}
        value={card.faceValue}
        onChange={hydrated ? onFaceValue : undefined}
        errors={errors[`${prefix}.faceValue`]}
        live={payout.problem}
      />
      {!signedIn ? null : offer.cardType === 'ecode' ? (
        <CodeFields prefix={prefix} position={i + 1} errors={errors} />
      ) : (
        <PhotoPicker
          prefix={prefix}
          position={i + 1}
          initialIds={card.imageIds}
          errors={errors[`${prefix}.photos`]}
          onPendingChange={onPending}
        />
      )}
      <p className="cl-sellcard__payout" aria-live="polite">
        {payout.payout !== null ? (
          <>
            You get <strong className="cl-amount">{formatMoney(payout.payout, payoutCurrency)}</strong>
          </>
        ) : (
          <span className="cl-muted">{offer.denominations?.length ? 'Choose' : 'Enter'} the face value to see the payout</span>
        )}
      </p>
    </fieldset>
  )
}

function AddCardButton({ onAdd }: { onAdd: () => void }) {
  return useHydrated() ? (
    <Button type="button" variant="ghost" icon="plus" block onClick={onAdd}>
      Add another card
    </Button>
  ) : (
    <Button type="submit" name="intent" value="add" formNoValidate variant="ghost" icon="plus" block>
      Add another card
    </Button>
  )
}

type Totals = { count: number; total: number | null; payoutCurrency: string }

function SellSummary({ count, total, payoutCurrency }: Totals) {
  return (
    <div className="cl-sellsummary" aria-live="polite">
      <span className="cl-sellsummary__label">{count === 1 ? 'You get' : `You get for ${count} cards`}</span>
      {total !== null ? (
        <strong className="cl-amount cl-amount--lg">{formatMoney(total, payoutCurrency)}</strong>
      ) : (
        <span className="cl-muted">—</span>
      )}
      <span className="cl-sellsummary__promise">
        <Icon name="lock" size={16} /> This rate is locked when you submit: the review starts from it.
      </span>
    </div>
  )
}

function SellActions({ count, total, payoutCurrency }: Totals) {
  const { signedIn } = useLoaderData<typeof loader>()
  const rateChanged = Boolean(useActionData<typeof action>()?.newRate)
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const submitting = navigation.state === 'submitting' && navigation.formAction?.split('?')[0] === HERE
  const label = !signedIn
    ? 'Sign in to sell'
    : rateChanged
      ? `Confirm ${total !== null ? formatMoney(total, payoutCurrency) : 'the new payout'}`
      : total !== null && hydrated
        ? `Sell for ${formatMoney(total, payoutCurrency)}`
        : count === 1
          ? 'Sell card'
          : `Sell ${count} cards`
  return (
    <ActionBar className="cl-sellform__actions">
      {!hydrated ? (
        <Button type="submit" name="intent" value="check" formNoValidate variant="secondary" block>
          Check rate
        </Button>
      ) : null}
      <Button
        type="submit"
        name="intent"
        value="sell"
        variant="primary"
        block
        pending={submitting && navigation.formData?.get('intent') === 'sell'}
      >
        {label}
      </Button>
    </ActionBar>
  )
}
