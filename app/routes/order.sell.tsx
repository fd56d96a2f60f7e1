// Sell Gift Card (SPEC §2, public): brand → country → card type (links, so each choice is a page a
// visitor can share and come back to), then the cards: face value and the e-code, or photos of a
// physical card. The payout shows as you type with JavaScript (payoutFor, the api's own rule) and
// by "Check rate" without it. A visitor who submits signs in and comes back with the choices in the
// URL, never the codes. The quoted rate and a request id from the loader travel as hidden fields:
// a moved rate is shown and confirmed (RATE_CHANGED), a double submit makes one order.
import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type AppLoadContext, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from '@remix-run/react'
import { useCallback, useState, type FormEvent, type ReactNode } from 'react'
import { z } from 'zod'
import {
  catalogueFields,
  faceValueProblem,
  payoutFor,
  rateField,
  type Brand,
  type CardType,
  type CardTypeOffer,
  type Rate,
} from '#contract/catalogue'
import { amountInputValue, formatMoney, MAX_AMOUNT, parseAmount } from '#contract/money'
import { MAX_CARDS_PER_ORDER, MAX_IMAGES_PER_CARD, sellBody, type SellBody } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { fileIdField } from '#contract/uploads'
import { newRequestId, requestIdField } from '#contract/withdrawals'
import { ActionToast } from '~/components/action-toast'
import { BrandTile } from '~/components/brand-tile'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, FormError } from '~/components/forms'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { PhotoPicker } from '~/components/photo-picker'
import { cardTypeLabel, RateText } from '~/components/rate-row'
import { ActionBar, Screen } from '~/components/screen'
import { cx, useHydrated } from '~/components/ui'
import sellStyles from '~/styles/screens/sell.css'
import { giftCardListFlow, giftCardRatesFlow } from '~/upstream/catalogue.server'
import { loaded } from '~/upstream/flow.server'
import { sellFlow } from '~/upstream/orders.server'
import { uploadPhotoFlow } from '~/upstream/uploads.server'
import { getToken, loginUrl } from '~/utils/auth.server'
import { guardForm } from '~/utils/form-parse.server'
import { isTransportFailure, toastNow } from '~/utils/form.server'
import { flowMessage, sellingMessages as M } from '~/utils/messages'
import { isMultipart, MultipartError, readMultipart, readSmallForm, refusedBodyHeaders } from '~/utils/multipart.server'
import { redirectWithToast, type Toast } from '~/utils/toast.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: sellStyles }]

const HERE = '/order/sell'

// ─── Choices: brand → country → type ────────────────────────────────────────────────────────────

type Choice = {
  brand: Brand | null
  country: Brand['countries'][number] | null
  offer: CardTypeOffer | null
  /** Why a choice in the URL was not taken (an unknown brand, a country it is not bought from). */
  notice: string | null
}

/** The choices a URL or form names, each checked against the catalogue; the first offered stands in for a missing one. */
function resolveChoice(brands: Brand[], asked: { brandId?: string | null; country?: string | null; cardType?: string | null }): Choice {
  const none: Choice = { brand: null, country: null, offer: null, notice: null }
  if (!asked.brandId) return none
  const brand = brands.find((b) => b.brandId === asked.brandId?.trim().toLowerCase())
  if (!brand) return { ...none, notice: Refusals.UNKNOWN_BRAND.msg }
  let notice: string | null = null
  const wantedCountry = asked.country?.trim().toUpperCase()
  let country = brand.countries.find((c) => c.country === wantedCountry) ?? null
  if (!country) {
    if (wantedCountry) notice = `We do not buy ${brand.name} cards from that country. Choose another country`
    country = brand.countries[0] ?? null
  }
  if (!country) return { ...none, brand, notice }
  let offer = country.cardTypes.find((t) => t.cardType === asked.cardType) ?? null
  if (!offer) {
    if (asked.cardType && !notice)
      notice = `We do not buy ${brand.name} ${country.countryName} cards as ${typeLabelPlural(asked.cardType)}. Choose the other type`
    offer = country.cardTypes[0] ?? null
  }
  return { brand, country, offer, notice }
}

const typeLabelPlural = (cardType: string) => (cardType === 'ecode' ? 'e-codes' : 'physical cards')

function choiceQuery(c: { brandId: string; country?: string; cardType?: string }, faceValues: string[] = []): string {
  const query = new URLSearchParams({ brandId: c.brandId })
  if (c.country) query.set('country', c.country)
  if (c.cardType) query.set('cardType', c.cardType)
  for (const v of faceValues) query.append('faceValue', v)
  return `${HERE}?${query}`
}

/** A face value as it may travel in a URL: what a person types in an amount, nothing else (never a code). */
const faceValueText = (v: unknown) => (typeof v === 'string' && /^[\d.,\s]{0,20}$/.test(v) ? v.trim() : '')

// ─── Loader ─────────────────────────────────────────────────────────────────────────────────────

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
  return json({
    brands,
    choice,
    rates,
    faceValues,
    requestId: newRequestId(),
    signedIn: Boolean(await getToken(request)),
  })
}

/**
 * After a post to this page the loader stays as it was: the rate on the page is the one the person
 * saw, so a rate that moved meanwhile is said by the action (RATE_CHANGED) and confirmed, never
 * swapped in silently by a reload.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' && formAction?.split('?')[0] === HERE ? false : defaultShouldRevalidate

// ─── Action ─────────────────────────────────────────────────────────────────────────────────────

/** The form's own shape (names as the page writes them); the cards become the contract's SellBody below. */
const cardForm = z.object({
  faceValue: z.string({ required_error: M.faceValueRequired }).max(40, M.faceValueInvalid),
  code: z.string().max(200).optional(),
  pin: z.string().max(200).optional(),
  /** Photos already uploaded, their ids joined by commas. */
  imageIds: z
    .string()
    .max(MAX_IMAGES_PER_CARD * 2 * 40)
    .optional(),
})

const idsOf = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => fileIdField.safeParse(s).success)

/** A face value as typed ("100", "25.50"), in minor units of the card's currency. */
function readFaceValue(text: string | undefined, currency: string): number | undefined {
  const minor = text === undefined || text.includes('-') ? undefined : parseAmount(text, currency)
  return minor !== undefined && minor > 0 && minor <= MAX_AMOUNT ? minor : undefined
}

/**
 * The sell form read against the chosen card: each face value in minor units and checked against
 * the card's limits (faceValueProblem, the api's words), then the whole order through the
 * contract's own sellBody, its messages put on the field they are about.
 */
function sellSchema(currency: string, offer: CardTypeOffer, cardType: CardType) {
  return z
    .object({
      ...catalogueFields,
      quotedRate: rateField,
      requestId: requestIdField,
      cards: z
        .array(cardForm, { required_error: 'Add at least one card' })
        .min(1, 'Add at least one card')
        .max(MAX_CARDS_PER_ORDER, `At most ${MAX_CARDS_PER_ORDER} cards in one order`),
    })
    .transform((form, ctx): SellBody => {
      const cards = form.cards.map((card, i) => {
        const faceValue = readFaceValue(card.faceValue, currency)
        if (faceValue === undefined) ctx.addIssue({ code: 'custom', path: ['cards', i, 'faceValue'], message: M.faceValueInvalid })
        else {
          const problem = faceValueProblem(offer, faceValue, currency)
          if (problem) ctx.addIssue({ code: 'custom', path: ['cards', i, 'faceValue'], message: problem.msg })
        }
        if (cardType === 'ecode') {
          const cardCodes = card.pin ? [card.code ?? '', card.pin] : [card.code ?? '']
          return { faceValue: faceValue ?? 1, cardCodes }
        }
        const imageIds = idsOf(card.imageIds)
        return { faceValue: faceValue ?? 1, ...(imageIds.length > 0 && { imageIds }) }
      })
      const body = {
        brandId: form.brandId,
        country: form.country,
        cardType: form.cardType,
        cards,
        quotedRate: form.quotedRate,
        requestId: form.requestId,
      }
      const checked = sellBody.safeParse(body)
      if (!checked.success) {
        for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: formPath(issue.path), message: issue.message })
        return z.NEVER
      }
      return checked.data
    })
}

/** A contract path (cards.1.cardCodes.0) as the form's field (cards[1].code). */
function formPath(path: (string | number)[]): (string | number)[] {
  const [head, i, field, n] = path
  if (head !== 'cards' || typeof i !== 'number') return head === 'cards' ? ['cards'] : []
  if (field === 'cardCodes') return ['cards', i, n === 1 ? 'pin' : 'code']
  if (field === 'imageIds') return ['cards', i, 'photos']
  if (field === 'faceValue') return ['cards', i, 'faceValue']
  return ['cards', i, 'code']
}

/** What the page keeps of a card between posts: never its code or PIN. */
type CardState = { faceValue: string; imageIds: string[] }

type SellReply = {
  errors: Record<string, string[]>
  formError: string | null
  cards: CardState[]
  /** The rate to confirm after RATE_CHANGED. */
  newRate: Rate | null
  /** A fresh idempotency key (the old one was used for another order). */
  requestId: string | null
  /** Codes were typed and are not sent back: say so. */
  codesCleared: boolean
  toast: Toast | null
}

function reply(state: Partial<SellReply> & { cards: CardState[] }, status = 200) {
  return json<SellReply>(
    { errors: {}, formError: null, newRate: null, requestId: null, codesCleared: false, toast: null, ...state },
    { status, headers: status === 413 ? refusedBodyHeaders : undefined },
  )
}

/** The cards as the page sent them (face values and photo ids only). */
function cardStates(form: FormData): CardState[] {
  const cards: CardState[] = []
  for (let i = 0; i < MAX_CARDS_PER_ORDER; i++) {
    const faceValue = form.get(`cards[${i}].faceValue`)
    const ids = form.get(`cards[${i}].imageIds`)
    if (faceValue === null && ids === null && !form.has(`cards[${i}].code`)) break
    cards.push({ faceValue: faceValueText(faceValue), imageIds: idsOf(typeof ids === 'string' ? ids : '') })
  }
  return cards.length ? cards : [{ faceValue: '', imageIds: [] }]
}

const cardIndexOf = (name: string) => Number(/^cards\[(\d{1,2})\]\./.exec(name)?.[1] ?? -1)

const MULTIPART_MESSAGES: Record<MultipartError['reason'], string> = {
  'not-multipart': M.tooMuchAtOnce,
  malformed: 'This form could not be read. Please reload the page and try again.',
  'too-many-files': M.tooMuchAtOnce,
  'too-many-fields': M.tooMuchAtOnce,
  'field-too-large': M.tooMuchAtOnce,
  'file-too-large': M.photoTooLarge,
  'body-too-large': M.tooMuchAtOnce,
}

/**
 * The posted form. Without JavaScript a physical card's photos come in it (multipart): each is
 * streamed to the api as it arrives and its id joins the card's, so a refused submit never asks
 * for the same photo twice. A visitor's photos are not read at all.
 */
async function readSellForm(
  request: Request,
  context: AppLoadContext,
  signedIn: boolean,
): Promise<{ form: FormData; photoErrors: Record<string, string[]> }> {
  if (!isMultipart(request)) return { form: await readSmallForm(request), photoErrors: {} }
  const { form, files } = await readMultipart(
    request,
    { files: MAX_CARDS_PER_ORDER * MAX_IMAGES_PER_CARD, fileBytes: 5 * 1024 * 1024, fields: 100, fieldBytes: 4096 },
    async (file, signal) => {
      if (!signedIn || cardIndexOf(file.name) < 0 || !file.name.endsWith('.photos')) {
        for await (const _ of file.stream); // not ours to keep: read past it
        return null
      }
      return uploadPhotoFlow(request, context, file.stream, signal)
    },
  )
  guardForm(form)
  const photoErrors: Record<string, string[]> = {}
  for (const { name, result } of files) {
    if (!result) continue
    const i = cardIndexOf(name)
    if (result.success) {
      const key = `cards[${i}].imageIds`
      form.set(key, [...idsOf(String(form.get(key) ?? '')), result.data.fileId].join(','))
    } else {
      ;(photoErrors[`cards[${i}].photos`] ??= []).push(flowMessage(result))
    }
  }
  return { form, photoErrors }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const signedIn = Boolean(await getToken(request))
  let form: FormData
  let photoErrors: Record<string, string[]>
  try {
    ;({ form, photoErrors } = await readSellForm(request, context, signedIn))
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error
    const status = error.reason === 'malformed' ? 400 : 413
    return reply({ cards: [{ faceValue: '', imageIds: [] }], formError: MULTIPART_MESSAGES[error.reason] }, status)
  }
  const intent = String(form.get('intent') ?? 'sell')
  const asked = { brandId: form.get('brandId'), country: form.get('country'), cardType: form.get('cardType') }
  const str = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v : null)
  const codesCleared = [...form.keys()].some((k) => /\.(code|pin)$/.test(k) && String(form.get(k) ?? '') !== '')
  let cards = cardStates(form)

  // The page's own buttons without JavaScript: they change the list, never sell.
  if (intent === 'add') {
    if (cards.length < MAX_CARDS_PER_ORDER) cards = [...cards, { faceValue: cards[cards.length - 1]?.faceValue ?? '', imageIds: [] }]
    return reply({ cards, codesCleared, errors: photoErrors })
  }
  if (intent.startsWith('remove:')) {
    const i = Number(intent.slice('remove:'.length))
    if (cards.length > 1 && Number.isInteger(i)) cards = cards.filter((_, n) => n !== i)
    return reply({ cards, codesCleared, errors: photoErrors })
  }
  if (intent.startsWith('remove-photo:')) {
    const [, prefix, id] = intent.split(':')
    const i = cardIndexOf(`${prefix}.`)
    if (cards[i]) cards[i] = { ...cards[i], imageIds: cards[i].imageIds.filter((x) => x !== id) }
    return reply({ cards, codesCleared, errors: photoErrors })
  }
  if (intent === 'check') return reply({ cards, codesCleared, errors: photoErrors })

  if (!signedIn) {
    // Signing in first; the choices come back in the URL, the codes never do.
    const brandId = str(asked.brandId)?.trim().toLowerCase() ?? ''
    const back = /^[a-z0-9-]{1,40}$/.test(brandId)
      ? choiceQuery(
          {
            brandId,
            country: str(asked.country)
              ?.replace(/[^A-Za-z]/g, '')
              .slice(0, 2),
            cardType: str(asked.cardType)
              ?.replace(/[^a-z]/g, '')
              .slice(0, 10),
          },
          cards.map((c) => c.faceValue),
        )
      : HERE
    return redirectWithToast(request, loginUrl(back), { type: 'info', message: 'Sign in to sell your card. Your choices are kept.' })
  }

  const list = await giftCardListFlow(request, context)
  if (!list.success) return reply({ cards, formError: list.msg, toast: toastNow({ type: 'error', message: list.msg }) }, 503)
  const choice = resolveChoice(list.data, { brandId: str(asked.brandId), country: str(asked.country), cardType: str(asked.cardType) })
  if (!choice.brand || !choice.country || !choice.offer || choice.notice) {
    return reply({ cards, codesCleared, formError: choice.notice ?? M.chooseBrand }, 400)
  }
  const submission = parseWithZod(form, { schema: sellSchema(choice.country.currency, choice.offer, choice.offer.cardType) })
  if (submission.status !== 'success' || Object.keys(photoErrors).length > 0) {
    const errors: Record<string, string[]> = { ...photoErrors }
    const invalid = submission.status === 'success' ? {} : (submission.error ?? {})
    for (const [name, messages] of Object.entries(invalid)) if (messages?.length) errors[name] = [...(errors[name] ?? []), ...messages]
    const formError = errors[''] ?? errors.cards
    delete errors['']
    return reply({ cards, codesCleared, errors, formError: formError?.[0] ?? null }, 400)
  }

  const result = await sellFlow(request, context, submission.value)
  if (result.success) {
    return redirectWithToast(request, `/order/submit-success?id=${encodeURIComponent(result.data.id)}`, {
      type: 'success',
      message: M.orderSubmitted,
    })
  }
  const formError = flowMessage(result)
  // Not about the cards (the api away, busy, refusing access): a toast as well.
  const toast = isTransportFailure(result) ? toastNow({ type: 'error', message: formError }) : null
  const refusal = { cards, codesCleared, formError, toast }
  if (result.code === Refusals.RATE_CHANGED.code) {
    const rates = await giftCardRatesFlow(request, context, {
      brandId: choice.brand.brandId,
      country: choice.country.country,
      cardType: choice.offer.cardType,
    })
    return reply({ ...refusal, newRate: rates.success ? (rates.data[0] ?? null) : null }, 409)
  }
  if (result.code === Refusals.IDEMPOTENCY_KEY_REUSED.code) return reply({ ...refusal, requestId: newRequestId() }, 409)
  // "Card 2: …" or the one card's: the message goes where the person looks for it.
  const field = refusalField(result.code, submission.value.cards.length, result.msg)
  if (field) return reply({ ...refusal, formError: null, errors: { [field]: [result.msg] } }, 400)
  return reply(refusal, 400)
}

function refusalField(code: number | undefined, count: number, msg: string): string | null {
  const i = count > 1 ? Number(/^Card (\d+):/.exec(msg)?.[1] ?? 0) - 1 : 0
  if (i < 0) return null
  if (code === Refusals.CODE_ALREADY_SUBMITTED.code) return `cards[${i}].code`
  if (code === Refusals.IMAGE_NOT_FOUND.code) return `cards[${i}].photos`
  if (code === Refusals.FACE_VALUE_OUT_OF_RANGE.code || code === Refusals.FACE_VALUE_NOT_LISTED.code) return `cards[${i}].faceValue`
  return null
}

// ─── Page ───────────────────────────────────────────────────────────────────────────────────────

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

function BrandPicker({ brands }: { brands: Brand[] }) {
  return (
    <section className="cl-section" aria-labelledby="sell-brands">
      <h2 id="sell-brands" className="cl-section__title">
        Which gift card are you selling?
      </h2>
      <ul className="cl-brandgrid">
        {brands.map((b) => (
          <li key={b.brandId}>
            <Link to={choiceQuery({ brandId: b.brandId })} className="cl-brandgrid__item">
              <BrandTile brandId={b.brandId} logo={b.logo} size="lg" />
              <span className="cl-brandgrid__name">{b.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

function ChosenBrand({ brand }: { brand: Brand }) {
  return (
    <Card className="cl-chosen">
      <BrandTile brandId={brand.brandId} logo={brand.logo} size="lg" />
      <div className="cl-chosen__text">
        <h2 className="cl-chosen__name">{brand.name}</h2>
        <p className="cl-chosen__eta">
          <Icon name="clock" size={16} /> About {brand.etaMinutes} min to review
        </p>
      </div>
      <Link to={HERE} className="cl-link cl-link--touch cl-chosen__change" aria-label={`Change gift card (now ${brand.name})`}>
        Change
      </Link>
    </Card>
  )
}

type Chip = { key: string; to: string; label: string; sub?: ReactNode; current: boolean }

/** One choice as a row of links: it works without JavaScript and every choice is a URL. */
function ChipGroup({ label, items }: { label: string; items: Chip[] }) {
  const id = `chips-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <section className="cl-section cl-chipgroup" aria-labelledby={id}>
      <h2 id={id} className="cl-section-label">
        {label}
      </h2>
      <ul className="cl-chips">
        {items.map((item) => (
          <li key={item.key}>
            <Link
              to={item.to}
              replace
              className={cx('cl-chip', item.sub !== undefined && 'cl-chip--tall')}
              aria-current={item.current ? 'true' : undefined}
            >
              <span className="cl-chip__label">
                {item.current ? <Icon name="check-circle" size={16} className="cl-chip__check" /> : null}
                {item.label}
              </span>
              {item.sub ? <span className="cl-chip__sub">{item.sub}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

type FormCard = CardState & { key: string }
let cardKeys = 0
const withKey = (c: CardState): FormCard => ({ ...c, key: `card-${++cardKeys}` })

function SellForm({ brand, currency, offer, rate: loadedRate }: { brand: Brand; currency: string; offer: CardTypeOffer; rate: Rate }) {
  const { faceValues, requestId: loadedRequestId, signedIn } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const hydrated = useHydrated()
  const navigation = useNavigation()
  // The rate to quote: the one shown, until the api says it moved; then the new one, shown and
  // kept (another refusal after it does not bring the old one back).
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
  const [pendingPhotos, setPendingPhotos] = useState<Record<string, number>>({})
  const [waitMessage, setWaitMessage] = useState<string | null>(null)
  const errors = actionData?.errors ?? {}
  const isEcode = offer.cardType === 'ecode'
  const payouts = cards.map((c) => payoutOf(c.faceValue, offer, currency, rate))
  const total = payouts.every((p) => p.payout !== null) ? payouts.reduce((sum, p) => sum + (p.payout ?? 0), 0) : null
  const submitting = navigation.state === 'submitting' && navigation.formAction?.split('?')[0] === HERE
  const photosPending = Object.values(pendingPhotos).reduce((a, b) => a + b, 0)
  const onPending = useCallback((key: string, n: number) => setPendingPhotos((all) => (all[key] === n ? all : { ...all, [key]: n })), [])

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    if ((submitter?.value ?? 'sell') === 'sell' && photosPending > 0) {
      event.preventDefault()
      setWaitMessage(M.photosUploading)
    } else setWaitMessage(null)
  }

  const setFaceValue = (key: string, faceValue: string) => setCards((all) => all.map((c) => (c.key === key ? { ...c, faceValue } : c)))
  const rateChanged = Boolean(actionData?.newRate)
  const formError = actionData?.formError ?? null

  return (
    <Form
      method="post"
      // The choices stay in the URL, so a page drawn by the server after a post (without
      // JavaScript) is this card's page again, with the answer.
      action={choiceQuery({ brandId: brand.brandId, country: rate.country, cardType: offer.cardType })}
      // Files travel with the form only without JavaScript; with it they are uploaded one by one.
      encType={!hydrated && !isEcode && signedIn ? 'multipart/form-data' : undefined}
      className="cl-form cl-sellform"
      onSubmit={onSubmit}
      aria-describedby={formError ? 'sell-form-error' : undefined}
    >
      <input type="hidden" name="brandId" value={brand.brandId} />
      <input type="hidden" name="country" value={rate.country} />
      <input type="hidden" name="cardType" value={offer.cardType} />
      <input type="hidden" name="quotedRate" value={rate.rate} />
      <input type="hidden" name="requestId" value={requestId} />

      <p className="cl-sellform__rate">
        <span className="cl-sellform__rate-label">Rate now</span>
        <RateText rate={rate} />
      </p>

      {/* Only a page drawn by the server lost the codes; with JavaScript they are still in their fields. */}
      {actionData?.codesCleared && !hydrated ? (
        <div className="cl-callout cl-callout--neutral">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{M.codesCleared}</p>
        </div>
      ) : null}

      {cards.map((card, i) => (
        <fieldset key={card.key} className="cl-card cl-sellcard">
          <legend className="cl-visually-hidden">Card {i + 1}</legend>
          <div className="cl-sellcard__head" aria-hidden="true">
            <span className="cl-sellcard__title">Card {i + 1}</span>
          </div>
          {cards.length > 1 ? (
            hydrated ? (
              <button
                type="button"
                className="cl-link cl-link--touch cl-sellcard__remove"
                onClick={() => setCards((all) => all.filter((c) => c.key !== card.key))}
              >
                Remove card {i + 1}
              </button>
            ) : (
              <button
                type="submit"
                name="intent"
                value={`remove:${i}`}
                formNoValidate
                className="cl-link cl-link--touch cl-sellcard__remove"
              >
                Remove card {i + 1}
              </button>
            )
          ) : null}
          <FaceValueField
            prefix={`cards[${i}]`}
            position={i + 1}
            offer={offer}
            currency={currency}
            value={card.faceValue}
            onChange={hydrated ? (v) => setFaceValue(card.key, v) : undefined}
            errors={errors[`cards[${i}].faceValue`]}
            live={payouts[i].problem}
          />
          {!signedIn ? null : isEcode ? (
            <CodeFields prefix={`cards[${i}]`} position={i + 1} errors={errors} />
          ) : (
            <PhotoPicker
              prefix={`cards[${i}]`}
              position={i + 1}
              initialIds={card.imageIds}
              errors={errors[`cards[${i}].photos`]}
              onPendingChange={(n) => onPending(card.key, n)}
            />
          )}
          <p className="cl-sellcard__payout" aria-live="polite">
            {payouts[i].payout !== null ? (
              <>
                You get <strong className="cl-amount">{formatMoney(payouts[i].payout!, rate.payoutCurrency)}</strong>
              </>
            ) : (
              <span className="cl-muted">{offer.denominations?.length ? 'Choose' : 'Enter'} the face value to see the payout</span>
            )}
          </p>
        </fieldset>
      ))}

      {cards.length < MAX_CARDS_PER_ORDER ? (
        hydrated ? (
          <Button
            type="button"
            variant="ghost"
            icon="plus"
            block
            onClick={() => setCards((all) => [...all, withKey({ faceValue: all[all.length - 1]?.faceValue ?? '', imageIds: [] })])}
          >
            Add another card
          </Button>
        ) : (
          <Button type="submit" name="intent" value="add" formNoValidate variant="ghost" icon="plus" block>
            Add another card
          </Button>
        )
      ) : null}

      {!signedIn ? (
        <div className="cl-callout cl-callout--neutral">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{M.signInToSell}</p>
        </div>
      ) : null}

      <div className="cl-sellsummary" aria-live="polite">
        <span className="cl-sellsummary__label">{cards.length === 1 ? 'You get' : `You get for ${cards.length} cards`}</span>
        {total !== null ? (
          <strong className="cl-amount cl-amount--lg">{formatMoney(total, rate.payoutCurrency)}</strong>
        ) : (
          <span className="cl-muted">—</span>
        )}
        <span className="cl-sellsummary__promise">
          <Icon name="lock" size={16} /> This rate is locked when you submit: the review starts from it.
        </span>
      </div>

      {formError ? (
        <FormError id="sell-form-error" errors={[formError]}>
          {rateChanged ? <p className="cl-sellform__confirm">{M.rateChangedConfirm} below, or change the cards.</p> : null}
        </FormError>
      ) : null}
      {waitMessage ? <FormError errors={[waitMessage]} /> : null}

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
          {!signedIn
            ? 'Sign in to sell'
            : rateChanged
              ? `Confirm ${total !== null ? formatMoney(total, rate.payoutCurrency) : 'the new payout'}`
              : total !== null && hydrated
                ? `Sell for ${formatMoney(total, rate.payoutCurrency)}`
                : cards.length === 1
                  ? 'Sell card'
                  : `Sell ${cards.length} cards`}
        </Button>
      </ActionBar>
    </Form>
  )
}

/** "US$", "£", "€": the currency's sign as formatMoney writes it. */
const currencySymbol = (currency: string) => formatMoney(0, currency).replace(/[\d.,\s]/g, '')

/** A card's payout at the rate, or why its face value cannot be sold (the api's own words). */
function payoutOf(text: string, offer: CardTypeOffer, currency: string, rate: Rate): { payout: number | null; problem?: string } {
  if (!text.trim()) return { payout: null }
  const minor = readFaceValue(text, currency)
  if (minor === undefined) return { payout: null, problem: M.faceValueInvalid }
  const problem = faceValueProblem(offer, minor, currency)
  if (problem) return { payout: null, problem: problem.msg }
  return { payout: payoutFor(minor, rate.rate, currency, rate.payoutCurrency) }
}

function FaceValueField({
  prefix,
  position,
  offer,
  currency,
  value,
  onChange,
  errors,
  live,
}: {
  prefix: string
  position: number
  offer: CardTypeOffer
  currency: string
  value: string
  onChange?: (value: string) => void
  errors?: string[]
  live?: string
}) {
  const name = `${prefix}.faceValue`
  const id = `${prefix}-face-value`
  const shown = errors?.length ? errors : live ? [live] : []
  if (offer.denominations && offer.denominations.length > 0) {
    const chosen = readFaceValue(value, currency)
    return (
      <fieldset
        className={cx('cl-field', 'cl-denoms', shown.length > 0 && 'is-invalid')}
        aria-describedby={shown.length ? `${id}-error` : undefined}
      >
        <legend className="cl-field__label">Face value of card {position}</legend>
        <div className="cl-denoms__list">
          {offer.denominations.map((d) => (
            <label key={d} className="cl-denom">
              <input
                type="radio"
                name={name}
                value={amountInputValue(d, currency)}
                defaultChecked={chosen === d}
                onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
              />
              <span>{formatMoney(d, currency).replace(/\.00$/, '')}</span>
            </label>
          ))}
        </div>
        <ErrorList id={`${id}-error`} errors={shown} />
      </fieldset>
    )
  }
  return (
    <div className={cx('cl-field', shown.length > 0 && 'is-invalid')}>
      <label className="cl-field__label" htmlFor={id}>
        Face value of card {position}
      </label>
      {/* The currency sits inside the field's frame, beside what is typed, at any width. */}
      <div className="cl-moneyinput">
        <span className="cl-moneyinput__currency" aria-hidden="true">
          {currencySymbol(currency)}
        </span>
        <input
          id={id}
          name={name}
          className="cl-moneyinput__input"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={value}
          onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
          aria-invalid={shown.length > 0 || undefined}
          aria-describedby={cx(shown.length > 0 && `${id}-error`, `${id}-help`)}
        />
      </div>
      <div className="cl-field__footer">
        <ErrorList id={`${id}-error`} errors={shown} />
        <p id={`${id}-help`} className="cl-field__help">
          {formatMoney(offer.minFaceValue, currency)} to {formatMoney(offer.maxFaceValue, currency)}
        </p>
      </div>
    </div>
  )
}

function CodeFields({ prefix, position, errors }: { prefix: string; position: number; errors: Record<string, string[]> }) {
  const field = (part: 'code' | 'pin', label: string, help: string) => {
    const id = `${prefix}-${part}`
    const list = errors[`${prefix}.${part}`]
    return (
      <div className={cx('cl-field', Boolean(list?.length) && 'is-invalid')}>
        <label className="cl-field__label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          name={`${prefix}.${part}`}
          className="cl-input cl-input--cardcode"
          // A secret: never offered back by the browser, never corrected, never capitalised oddly.
          autoComplete="off"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={100}
          aria-invalid={list?.length ? true : undefined}
          aria-describedby={cx(Boolean(list?.length) && `${id}-error`, `${id}-help`)}
        />
        <div className="cl-field__footer">
          <ErrorList id={`${id}-error`} errors={list} />
          <p id={`${id}-help`} className="cl-field__help">
            {help}
          </p>
        </div>
      </div>
    )
  }
  return (
    <>
      {field('code', `Code of card ${position}`, 'Letters and digits, as printed. Spaces and dashes do not matter.')}
      {field('pin', `PIN of card ${position} (if it has one)`, 'Leave empty when the card has no PIN.')}
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
