import { z } from 'zod'
import { cardTypes, catalogueFields, logoSchema, rateField } from './catalogue'
import { get, post } from './endpoint'
import { pageQuerySchema, pageSchema } from './envelope'
import { MAX_AMOUNT } from './money'
import { currencyCode, minorUnits } from './money-fields'
import { MAX_CARDS_PER_ORDER, MAX_IMAGES_PER_CARD } from './order-rules'
import { type OrderStatus, orderStatuses } from './order-statuses'
import { REJECTION_REASONS, type ReasonCode, reasonCodes } from './rejection-reasons'
import { fileIdField } from './uploads'
import { requestIdField } from './withdrawals'

/**
 * Selling gift cards (DESIGN §3 "Orders"). An order is one brand × country × type with 1–10 cards;
 * the rate the person saw (`quotedRate`) and each card's payout at it are stored on the order, and
 * the review starts from them.
 *
 *   pending ──claim──▶ reviewing ──complete──▶ completed          (wallet credited: quoted payout)
 *      │                   ├──────reject────▶ rejected           (reason code, note, proof image)
 *      │                   └──────propose───▶ proposed ──accept──▶ completed (credited: proposed payout)
 *      └──cancel──▶ cancelled                            ├─decline─▶ declined (nothing credited)
 *                                                        └─lapse───▶ declined (no answer by the deadline)
 *
 * The person cancels (while pending), accepts or declines (while proposed); operators claim,
 * complete, propose and reject; an offer left unanswered past its deadline lapses by itself, as a
 * decline (the card is not redeemed and stays the person's; decision 051). Every change is an event on the order's timeline and a message to
 * the person. Repeating the move that was already made answers the order and changes nothing.
 */
export { OrderStatus, orderStatuses } from './order-statuses'

/** Who may make each move. */
export type OrderMove = 'cancel' | 'accept' | 'decline' | 'claim' | 'complete' | 'propose' | 'reject' | 'lapse'
export const ORDER_MOVES: Record<OrderMove, { from: OrderStatus; to: OrderStatus; by: 'person' | 'operator' | 'system' }> = {
  cancel: { from: 'pending', to: 'cancelled', by: 'person' },
  accept: { from: 'proposed', to: 'completed', by: 'person' },
  decline: { from: 'proposed', to: 'declined', by: 'person' },
  claim: { from: 'pending', to: 'reviewing', by: 'operator' },
  complete: { from: 'reviewing', to: 'completed', by: 'operator' },
  propose: { from: 'reviewing', to: 'proposed', by: 'operator' },
  reject: { from: 'reviewing', to: 'rejected', by: 'operator' },
  lapse: { from: 'proposed', to: 'declined', by: 'system' },
}
/** Still waiting for a decision: counted in the queue. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['pending', 'reviewing']

export { REJECTION_REASONS, type ReasonCode, reasonCodes }
export { MAX_CARDS_PER_ORDER, MAX_IMAGES_PER_CARD }

/**
 * An e-code as typed, normalised: spaces and dashes removed, upper case. Duplicates are found by
 * an HMAC of this form, so "abcd-efgh 1234" and "ABCDEFGH1234" are the same code.
 */
export const normaliseCode = (text: string) => text.replace(/[\s\-\u00a0]/g, '').toUpperCase()

const codeEntry = z.string({ invalid_type_error: 'The code must be text' }).max(100, 'The code is too long').transform(normaliseCode)
/**
 * `cardCodes` of an e-code card: `[code]`, or `[code, pin]` for cards that also have a PIN. The
 * code is 6–64 letters and digits; the PIN 3–16. Only the code counts for duplicates.
 */
const cardCodesField = z
  .array(codeEntry, { invalid_type_error: 'cardCodes must be a list' })
  .min(1, 'Type the code of the card')
  .max(2, 'Send the code, and the PIN if the card has one')
  .superRefine((codes, ctx) => {
    if (!/^[A-Z0-9]{6,64}$/.test(codes[0] ?? '')) {
      ctx.addIssue({
        code: 'custom',
        path: [0],
        message: codes[0] ? 'The code must be 6 to 64 letters and digits' : 'Type the code of the card',
      })
    }
    if (codes.length > 1 && !/^[A-Z0-9]{3,16}$/.test(codes[1])) {
      ctx.addIssue({ code: 'custom', path: [1], message: 'The PIN must be 3 to 16 letters and digits' })
    }
  })

export const sellCardSchema = z
  .object({
    faceValue: z
      .number({
        required_error: 'Enter the face value of the card',
        invalid_type_error: 'Face value must be a whole number of minor units',
      })
      .int('Face value must be a whole number of minor units')
      .positive('Enter the face value of the card')
      .max(MAX_AMOUNT, 'Face value is too large'),
    cardCodes: cardCodesField.optional(),
    imageIds: z
      .array(fileIdField, { invalid_type_error: 'imageIds must be a list' })
      .min(1, 'Add a photo of the card')
      .max(MAX_IMAGES_PER_CARD, `At most ${MAX_IMAGES_PER_CARD} photos a card`)
      .refine((ids) => new Set(ids.map((i) => i.toLowerCase())).size === ids.length, 'The same photo is added twice')
      .optional(),
  })
  .strict()

export const sellBody = z
  .object({
    ...catalogueFields,
    cards: z
      .array(sellCardSchema, { required_error: 'Add at least one card', invalid_type_error: 'cards must be a list' })
      .min(1, 'Add at least one card')
      .max(MAX_CARDS_PER_ORDER, `At most ${MAX_CARDS_PER_ORDER} cards in one order`),
    /** The rate the person was shown; a different current rate is refused with RATE_CHANGED. */
    quotedRate: rateField,
    requestId: requestIdField,
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>()
    body.cards.forEach((card, i) => {
      if (body.cardType === 'ecode') {
        if (!card.cardCodes) ctx.addIssue({ code: 'custom', path: ['cards', i, 'cardCodes'], message: 'Type the code of each e-code card' })
        if (card.imageIds)
          ctx.addIssue({ code: 'custom', path: ['cards', i, 'imageIds'], message: 'An e-code card is sold by its code, not photos' })
        const code = card.cardCodes?.[0]
        if (code) {
          if (seen.has(code))
            ctx.addIssue({
              code: 'custom',
              path: ['cards', i, 'cardCodes', 0],
              message: `This is the same code as card ${seen.get(code)! + 1}`,
            })
          else seen.set(code, i)
        }
      } else {
        if (!card.imageIds) ctx.addIssue({ code: 'custom', path: ['cards', i, 'imageIds'], message: 'Add a photo of each physical card' })
        if (card.cardCodes)
          ctx.addIssue({
            code: 'custom',
            path: ['cards', i, 'cardCodes'],
            message: 'A physical card is sold by its photos; choose e-code to type a code',
          })
      }
    })
  })
export type SellBody = z.infer<typeof sellBody>

// ─── Answers ────────────────────────────────────────────────────────────────────────────────────

export const cardStatuses = ['pending', 'reviewing', 'accepted', 'lowered', 'rejected', 'completed', 'cancelled', 'declined'] as const
export type CardStatus = (typeof cardStatuses)[number]

export const orderCardSchema = z.object({
  cardId: z.string(),
  /** 1, 2, 3… in the order the person listed them. */
  position: z.number().int().positive(),
  /** Minor units of the card currency. */
  faceValue: minorUnits,
  /** At the quoted rate (payoutFor), minor units of the payout currency. */
  quotedPayout: minorUnits,
  /** What an operator offers instead (lower), while or after an order is proposed. */
  proposedPayout: minorUnits.nullable(),
  /** What was paid for this card, once completed (0 for a card rejected within a proposal). */
  settledPayout: minorUnits.nullable(),
  /**
   * pending/reviewing as the order; accepted (at the quote) or lowered or rejected within a
   * proposal; completed, rejected, cancelled or declined at the end.
   */
  status: z.enum(cardStatuses),
  /** Why this card was lowered or rejected. */
  reasonCode: z.enum(reasonCodes).nullable(),
  reasonText: z.string().nullable(),
  /** E-codes, masked: the code's last 4 ("•••• 7XQ2"), then "•••" for a PIN. Empty for photos. */
  maskedCodes: z.array(z.string()),
  /** Photos, readable by the owner through GET /v1/file/get?id=. Empty for e-codes. */
  imageIds: z.array(z.string()),
})
export type OrderCard = z.infer<typeof orderCardSchema>

export const orderEventSchema = z.object({
  status: z.enum(orderStatuses),
  at: z.number().int(),
  /** Who moved it: the person, an operator, or the system. */
  by: z.enum(['you', 'operator', 'system']),
  note: z.string().nullable(),
})
export type OrderEvent = z.infer<typeof orderEventSchema>

const orderHead = {
  id: z.string(),
  /** For people and support: "CL-7KQ2M9XA". */
  orderNo: z.string(),
  status: z.enum(orderStatuses),
  brandId: z.string(),
  brandName: z.string(),
  logo: logoSchema,
  country: z.string(),
  /** The card currency (face values). */
  currency: currencyCode,
  cardType: z.enum(cardTypes),
  /** The rate locked at submission: what the review starts from. */
  quotedRate: z.string(),
  payoutCurrency: currencyCode,
  cardCount: z.number().int().positive(),
  faceValueTotal: minorUnits,
  /** Sum of the cards' quoted payouts. */
  quotedPayout: minorUnits,
  /** Sum of the proposed payouts, when a lower payout was proposed. */
  proposedPayout: minorUnits.nullable(),
  /** What reached the wallet (completed), 0 when nothing did (rejected, declined, cancelled). */
  settledPayout: minorUnits.nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
}

export const orderSummarySchema = z.object(orderHead)
export type OrderSummary = z.infer<typeof orderSummarySchema>

export const orderSchema = z.object({
  ...orderHead,
  cards: z.array(orderCardSchema),
  /** Set when rejected: the reason code and the sentence for it (REJECTION_REASONS). */
  rejection: z.object({ reasonCode: z.enum(reasonCodes), reasonText: z.string() }).nullable(),
  /** Set once a lower payout is proposed (kept after accept or decline); it lapses unanswered at `answerBy`. */
  proposal: z.object({ payout: minorUnits, reason: z.string(), at: z.number().int(), answerBy: z.number().int() }).nullable(),
  /** What the operator wrote to the person (with a rejection, a proposal or a completion). */
  operatorNote: z.string().nullable(),
  /** A photo the operator attached as proof (e.g. the redeem screen), readable by the owner. */
  proofImageId: z.string().nullable(),
  /** While pending or reviewing: place in the review queue (1 = next), and the brand's ETA. */
  queue: z
    .object({
      position: z.number().int().positive(),
      etaMinutes: z.number().int().positive(),
      /** createdAt + the ETA (epoch ms): the promise shown to the person. */
      expectedBy: z.number().int(),
    })
    .nullable(),
  /** Every status change, oldest first. */
  events: z.array(orderEventSchema),
})
export type Order = z.infer<typeof orderSchema>

export const orderIdField = z
  .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
  .trim()
  .min(1, 'id is required')
  .max(64)
export const orderIdBody = z.object({ id: orderIdField }).strict()
export const orderIdQuery = z.object({ id: orderIdField })
export const orderPageQuery = pageQuerySchema.extend({ status: z.enum(orderStatuses).optional() })

export const ordersApi = {
  sell: post('/v1/order/sell', 'user', sellBody, orderSchema),
  page: get('/v1/order/page', 'user', orderPageQuery, pageSchema(orderSummarySchema)),
  detail: get('/v1/order/detail', 'user', orderIdQuery, orderSchema),
  cancel: post('/v1/order/cancel', 'user', orderIdBody, orderSchema),
  accept: post('/v1/order/accept', 'user', orderIdBody, orderSchema),
  decline: post('/v1/order/decline', 'user', orderIdBody, orderSchema),
}
