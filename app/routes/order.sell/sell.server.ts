// The sell page's action: the posted form (photos streamed to the api as they arrive without
// JavaScript), the page's own list buttons, and the order checked against the chosen card.
import { parseWithZod } from '@conform-to/zod'
import { type AppLoadContext, data } from '@remix-run/node'
import { z } from 'zod'
import { catalogueFields, faceValueProblem, rateField, type CardType, type CardTypeOffer, type Rate } from '#contract/catalogue'
import { MAX_CARDS_PER_ORDER, MAX_IMAGES_PER_CARD, sellBody, type SellBody } from '#contract/orders'
import { Refusals } from '#contract/refusals'
import { newRequestId, requestIdField } from '#contract/withdrawals'
import { leaveErrorAction } from '~/components/forms'
import { giftCardListFlow, giftCardRatesFlow } from '~/upstream/catalogue.server'
import type { FlowFailure } from '~/upstream/flow.server'
import { sellFlow } from '~/upstream/orders.server'
import { uploadPhotoFlow } from '~/upstream/uploads.server'
import { getToken, loginUrl } from '~/utils/auth.server'
import { guardForm } from '~/utils/form-parse.server'
import { isTransportFailure, toastNow } from '~/utils/form.server'
import { flowMessage } from '~/utils/messages'
import { isMultipart, MultipartError, readMultipart, readSmallForm, refusedBodyHeaders } from '~/utils/multipart.server'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { sellingMessages as M } from '~/utils/selling-messages'
import { successMessages } from '~/utils/shell-messages'
import { redirectWithToast, type Toast } from '~/utils/toast.server'
import { choiceQuery, faceValueText, HERE, idsOf, readFaceValue, resolveChoice, type CardState, type Choice } from './choice'

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

export type SellReply = {
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
  return data<SellReply>(
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
  'file-too-large': R.cardPhotoTooLarge,
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
  if (!isMultipart(request)) return { form: await readSmallForm(context, request), photoErrors: {} }
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

type Posted = { form: FormData; cards: CardState[]; codesCleared: boolean; photoErrors: Record<string, string[]> }

export async function sellAction(request: Request, context: AppLoadContext) {
  const signedIn = Boolean(await getToken(request))
  let read: Awaited<ReturnType<typeof readSellForm>>
  try {
    read = await readSellForm(request, context, signedIn)
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error
    const status = error.reason === 'malformed' ? 400 : 413
    return reply({ cards: [{ faceValue: '', imageIds: [] }], formError: MULTIPART_MESSAGES[error.reason] }, status)
  }
  const { form, photoErrors } = read
  const codesCleared = [...form.keys()].some((k) => /\.(code|pin)$/.test(k) && String(form.get(k) ?? '') !== '')
  const posted: Posted = { form, cards: cardStates(form), codesCleared, photoErrors }
  const intent = String(form.get('intent') ?? 'sell')
  if (intent === 'add' || intent === 'check' || intent.startsWith('remove:') || intent.startsWith('remove-photo:')) {
    return listChanged(intent, posted)
  }
  if (!signedIn) return signInFirst(request, posted)
  return sell(request, context, posted)
}

const str = (v: FormDataEntryValue | null) => (typeof v === 'string' ? v : null)
const askedOf = (form: FormData) => ({
  brandId: str(form.get('brandId')),
  country: str(form.get('country')),
  cardType: str(form.get('cardType')),
})

/** The page's own buttons without JavaScript: they change the list, never sell. */
function listChanged(intent: string, { cards, codesCleared, photoErrors }: Posted) {
  if (intent === 'add' && cards.length < MAX_CARDS_PER_ORDER) {
    cards = [...cards, { faceValue: cards[cards.length - 1]?.faceValue ?? '', imageIds: [] }]
  } else if (intent.startsWith('remove:')) {
    const i = Number(intent.slice('remove:'.length))
    if (cards.length > 1 && Number.isInteger(i)) cards = cards.filter((_, n) => n !== i)
  } else if (intent.startsWith('remove-photo:')) {
    const [, prefix, id] = intent.split(':')
    const i = cardIndexOf(`${prefix}.`)
    if (cards[i]) cards[i] = { ...cards[i], imageIds: cards[i].imageIds.filter((x) => x !== id) }
  }
  // "check" draws the page again with the payouts.
  return reply({ cards, codesCleared, errors: photoErrors })
}

/** Signing in first; the choices come back in the URL, the codes never do. */
function signInFirst(request: Request, { form, cards }: Posted) {
  const asked = askedOf(form)
  const brandId = asked.brandId?.trim().toLowerCase() ?? ''
  const back = /^[a-z0-9-]{1,40}$/.test(brandId)
    ? choiceQuery(
        {
          brandId,
          country: asked.country?.replace(/[^A-Za-z]/g, '').slice(0, 2),
          cardType: asked.cardType?.replace(/[^a-z]/g, '').slice(0, 10),
        },
        cards.map((c) => c.faceValue),
      )
    : HERE
  return redirectWithToast(request, leaveErrorAction(request, loginUrl(back)), {
    type: 'info',
    message: 'Sign in to sell your card. Your choices are kept.',
  })
}

async function sell(request: Request, context: AppLoadContext, posted: Posted) {
  const { form, cards, codesCleared, photoErrors } = posted
  const list = await giftCardListFlow(request, context)
  if (!list.success) return reply({ cards, formError: list.msg, toast: toastNow({ type: 'error', message: list.msg }) }, 503)
  const choice = resolveChoice(list.data, askedOf(form))
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
    return redirectWithToast(request, leaveErrorAction(request, `/order/submit-success?id=${encodeURIComponent(result.data.id)}`), {
      type: 'success',
      message: successMessages.orderSubmitted,
    })
  }
  return saleRefused(request, context, posted, choice, result, submission.value.cards.length)
}

async function saleRefused(request: Request, context: AppLoadContext, posted: Posted, choice: Choice, result: FlowFailure, count: number) {
  const formError = flowMessage(result)
  // Not about the cards (the api away, busy, refusing access): a toast as well.
  const toast = isTransportFailure(result) ? toastNow({ type: 'error', message: formError }) : null
  const refusal = { cards: posted.cards, codesCleared: posted.codesCleared, formError, toast }
  if (result.code === Refusals.RATE_CHANGED.code) {
    const rates = await giftCardRatesFlow(request, context, {
      brandId: choice.brand!.brandId,
      country: choice.country!.country,
      cardType: choice.offer!.cardType,
    })
    return reply({ ...refusal, newRate: rates.success ? (rates.data[0] ?? null) : null }, 409)
  }
  if (result.code === Refusals.IDEMPOTENCY_KEY_REUSED.code) return reply({ ...refusal, requestId: newRequestId() }, 409)
  // "Card 2: …" or the one card's: the message goes where the person looks for it.
  const field = refusalField(result.code, count, result.msg)
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
