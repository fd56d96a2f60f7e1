import { z } from 'zod'
import { cardTypes, catalogueFields, rateField, rateSchema } from '../catalogue'
import { get, noInput, post } from '../endpoint'
import { pageQuerySchema, pageSchema } from '../envelope'
import { minorUnits } from '../money-fields'
import { orderCardSchema, orderIdField, orderIdQuery, orderSchema, orderStatuses, reasonCodes } from '../orders'
import { fileIdField, fileQuery, imageBytes, uploadData } from '../uploads'
import { deskAuth } from './desks'

/**
 * Operators review orders and set rates (reviewers; rates and ETAs admins; audit log as contract/ops/money.ts;
 * `npm run ops -- orders|order|rate|eta …`). The queue shows each card's photos (image ids, read
 * with GET /admin/file/get); an e-code is DECRYPTED (operators redeem it) only for the reviewer who
 * holds the order's claim, in the answers of claim and detail, and each such reveal is audited.
 */
export const deskOrderSchema = orderSchema.extend({
  userId: z.string(),
  email: z.string(),
  /** The reviewer who holds (or last held) its claim ("staff:ada@cardlane.ng"), once reviewing. */
  claimedBy: z.string().nullable(),
  /** When that claim lapses: then another reviewer may take the order over. */
  claimExpiresAt: z.number().int().nullable(),
  cards: z.array(orderCardSchema.extend({ codes: z.array(z.string()) })),
})
export type DeskOrder = z.infer<typeof deskOrderSchema>

/** How long a claim holds without a decision (claiming again renews it). */
export const CLAIM_MS = 30 * 60_000

/**
 * Without `status`: the queue (pending and reviewing), oldest first. The other filters narrow it
 * to one brand, country or card type (`ecode` or `physical`).
 */
export const queuePageQuery = pageQuerySchema.extend({
  status: z.enum(orderStatuses, { errorMap: () => ({ message: `choose one of ${orderStatuses.join(', ')}` }) }).optional(),
  brand: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,40}$/, 'a brand id, as "apple" or "google-play"')
    .optional(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'a two-letter country code, as "US"')
    .optional(),
  type: z.enum(cardTypes, { errorMap: () => ({ message: `choose one of ${cardTypes.join(', ')}` }) }).optional(),
})
export type QueuePageQuery = z.infer<typeof queuePageQuery>

/** A queue row: the order, how long it has waited, and whether that is past its brand's promised ETA. */
export const queueItemSchema = deskOrderSchema.extend({ ageMinutes: z.number().int(), late: z.boolean() })
export type QueueItem = z.infer<typeof queueItemSchema>

/** The page of the queue, and what waits (pending or reviewing) under the same brand, country and type. */
export const queueData = pageSchema(queueItemSchema).extend({
  waiting: z.object({ total: z.number().int().nonnegative(), late: z.number().int().nonnegative() }),
})
export type QueueData = z.infer<typeof queueData>

const noteField = z.string({ invalid_type_error: 'note must be text' }).trim().min(3, 'note: say it in a few words').max(500)

export const completeOrderBody = z.object({ id: orderIdField, note: noteField.optional() }).strict()

/**
 * A lower payout for some cards (the others keep their quoted payout); payout 0 rejects that card
 * within the order. The person then accepts (credited the new total) or declines (nothing).
 */
export const proposeOrderBody = z
  .object({
    id: orderIdField,
    /** The sentence the person reads on the order and in the message. */
    reason: z
      .string({ required_error: 'reason: tell the person why the payout is lower' })
      .trim()
      .min(3, 'reason: tell the person why the payout is lower')
      .max(500),
    cards: z
      .array(z.object({ cardId: z.string().min(1).max(64), payout: minorUnits, reasonCode: z.enum(reasonCodes) }).strict())
      .min(1, 'cards: name the cards whose payout is lower')
      .max(10),
  })
  .strict()
  .refine((b) => new Set(b.cards.map((c) => c.cardId)).size === b.cards.length, { message: 'A card is named twice', path: ['cards'] })

export const rejectOrderBody = z
  .object({
    id: orderIdField,
    reasonCode: z.enum(reasonCodes),
    /** Required with OTHER; shown to the person. */
    note: noteField.optional(),
    proofImageId: fileIdField.optional(),
  })
  .strict()
  .refine((b) => b.reasonCode !== 'OTHER' || b.note, { message: 'OTHER needs a note the person can read', path: ['note'] })

/** An account younger than this, selling at least LARGE_SALE (minor units of the payout currency), is flagged. */
export const NEW_ACCOUNT_DAYS = 7
export const LARGE_SALE = 20_000_000

/**
 * What a reviewer weighs besides the photos: the seller's history, and where this order's photos
 * (by perceptual hash, decision 017), e-codes (by keyed hash) or bank accounts were seen on
 * another account.
 */
export const orderSignalsSchema = z.object({
  seller: z.object({
    userId: z.string(),
    email: z.string(),
    joinedAt: z.number().int(),
    accountAgeDays: z.number().int(),
    completed: z.number().int(),
    rejected: z.number().int(),
    /** No order of this seller came before this one. */
    firstOrder: z.boolean(),
  }),
  samePhoto: z.array(
    z.object({
      cardId: z.string(),
      imageId: z.string(),
      otherImageId: z.string(),
      email: z.string(),
      orderId: z.string().nullable(),
      orderNo: z.string().nullable(),
      /** Bits of 64 that differ: 0 is the same picture. */
      distance: z.number().int(),
    }),
  ),
  sameCode: z.array(z.object({ cardId: z.string(), email: z.string(), orderId: z.string(), orderNo: z.string() })),
  sharedBank: z.array(z.object({ bankCode: z.string(), last4: z.string(), emails: z.array(z.string()) })),
  newAccountLargeSale: z.boolean(),
})
export type OrderSignals = z.infer<typeof orderSignalsSchema>

/** `codes=hide`: the order without decrypting its e-codes (a page that reveals only on request). */
export const deskOrderQuery = orderIdQuery.extend({
  codes: z.enum(['show', 'hide'], { errorMap: () => ({ message: 'choose show or hide' }) }).default('show'),
})

/**
 * `confirmed`: the admin saw the confirmation step (old → new, the change, what a 100 card pays).
 * A rate further than RATE_CONFIRM_CHANGE percent from the one in force is refused without it;
 * beyond RATE_APPROVAL_CHANGE it waits for a second admin (decision 041).
 */
export const setRateBody = z.object({ ...catalogueFields, rate: rateField, confirmed: z.boolean().optional() }).strict()

/** A rate change waiting for a second admin: nothing quoted changes until one approves it. */
const rateChangeRequestSchema = z.object({
  type: z.literal('rate_change_request'),
  id: z.string(),
  brandId: z.string(),
  brandName: z.string(),
  country: z.string(),
  cardType: z.enum(cardTypes),
  currency: z.string(),
  payoutCurrency: z.string(),
  rate: z.string(),
  /** The rate in force when it was asked. */
  before: z.string(),
  /** In percent, 2 decimals. */
  changePercent: z.number(),
  maker: z.string(),
  status: z.enum(['pending', 'approved', 'declined', 'lapsed']),
  checker: z.string().nullable(),
  createdAt: z.number().int(),
})
export type RateChangeRequest = z.infer<typeof rateChangeRequestSchema>
const rateChangeId = z.object({ id: z.string().min(1).max(64) }).strict()
export const setEtaBody = z
  .object({
    brandId: catalogueFields.brandId,
    etaMinutes: z
      .number()
      .int('etaMinutes must be whole minutes')
      .min(1)
      .max(7 * 24 * 60),
  })
  .strict()

export const rateHistoryQuery = z.object({ ...catalogueFields })
export const rateHistoryData = z.array(z.object({ rate: z.string(), setAt: z.number().int(), setBy: z.string() }))

export const reviewDeskApi = {
  queue: get('/admin/order/page', deskAuth('review'), queuePageQuery, queueData),
  detail: get('/admin/order/detail', deskAuth('review'), deskOrderQuery, deskOrderSchema),
  /** The claim holder's e-codes, decrypted; audited. Refused without the claim. */
  reveal: post('/admin/order/reveal', deskAuth('review'), z.object({ id: orderIdField }).strict(), deskOrderSchema),
  signals: get('/admin/order/signals', deskAuth('review'), orderIdQuery, orderSignalsSchema),
  claim: post('/admin/order/claim', deskAuth('review'), z.object({ id: orderIdField }).strict(), deskOrderSchema),
  complete: post('/admin/order/complete', deskAuth('review'), completeOrderBody, deskOrderSchema),
  propose: post('/admin/order/propose', deskAuth('review'), proposeOrderBody, deskOrderSchema),
  reject: post('/admin/order/reject', deskAuth('review'), rejectOrderBody, deskOrderSchema),
  /** The rate in force at once, or (beyond RATE_APPROVAL_CHANGE) a request for a second admin. */
  setRate: post('/admin/giftcard/rate', deskAuth('rates'), setRateBody, z.union([rateChangeRequestSchema, rateSchema])),
  pendingRateChanges: get('/admin/giftcard/rate/pending', deskAuth('rates'), z.object({}), z.array(rateChangeRequestSchema)),
  /** Under the same checker rules as adjustments: the rate goes live once. */
  approveRateChange: post('/admin/giftcard/rate/approve', deskAuth('rates'), rateChangeId, rateSchema),
  declineRateChange: post('/admin/giftcard/rate/decline', deskAuth('rates'), rateChangeId, rateChangeRequestSchema),
  setEta: post('/admin/giftcard/eta', deskAuth('rates'), setEtaBody, z.object({ brandId: z.string(), etaMinutes: z.number().int() })),
  rateHistory: get('/admin/giftcard/rate/history', deskAuth('rates'), rateHistoryQuery, rateHistoryData),
  /** multipart, one part `file`, as /v1/file/upload: a proof photo for a rejection. */
  upload: post('/admin/file/upload', deskAuth('review'), noInput, uploadData),
  file: get('/admin/file/get', deskAuth('review'), fileQuery, imageBytes),
}
