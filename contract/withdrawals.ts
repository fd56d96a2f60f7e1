import { z } from 'zod'
import { get, post } from './endpoint'
import { pageQuerySchema, pageSchema } from './envelope'
import { currencyCode, minorUnits, positiveAmount } from './money-fields'
import { pinField } from './pin'

/**
 * Withdrawals (DESIGN §3): created `pending` with the amount held (frozen) at once; an operator
 * (manual payouts) or the payout worker (a provider, decision 018) moves them to `processing`,
 * then `success` (with the bank's payout reference) or `failed` (with a reason; the hold returns
 * to the balance as a withdraw_refund). Only the provider moves a `success` on: `reversed` when
 * the bank sent the money back (the full amount returns as a withdraw_reversal). `failed` and
 * `reversed` never move again.
 */
export const WithdrawalStatus = {
  PENDING: 'pending',
  PROCESSING: 'processing',
  SUCCESS: 'success',
  FAILED: 'failed',
  REVERSED: 'reversed',
} as const
export type WithdrawalStatus = (typeof WithdrawalStatus)[keyof typeof WithdrawalStatus]
export const withdrawalStatuses = Object.values(WithdrawalStatus) as [WithdrawalStatus, ...WithdrawalStatus[]]

/**
 * Every move a withdrawal may make, stated once (decision 038); every other place reads it. Forward
 * only: `reversed` straight from pending or processing is a payout the bank could not receive (the
 * person was never told "paid"); from success, one the bank sent back.
 */
export const WITHDRAWAL_MOVES: Record<WithdrawalStatus, readonly WithdrawalStatus[]> = {
  pending: ['processing', 'failed', 'reversed'],
  processing: ['success', 'failed', 'reversed'],
  success: ['reversed'],
  failed: [],
  reversed: [],
}

/** Only a provider reverses: an operator paying by hand makes the other moves. */
export const canMove = (from: WithdrawalStatus, to: WithdrawalStatus, by: 'operator' | 'provider') =>
  WITHDRAWAL_MOVES[from].includes(to) && (by === 'provider' || to !== 'reversed')

/** The shortest chain of moves from one status to another (empty: none), e.g. pending → success goes through processing. */
export function movesTo(from: WithdrawalStatus, to: WithdrawalStatus): WithdrawalStatus[] {
  const queue: WithdrawalStatus[][] = [[]]
  for (let path = queue.shift(); path; path = queue.shift()) {
    const at = path.length ? path[path.length - 1] : from
    if (at === to && path.length) return path
    for (const next of WITHDRAWAL_MOVES[at]) if (!path.includes(next)) queue.push([...path, next])
  }
  return []
}

/** How far along a status lies (the longest chain of moves to it): orders the timeline's moves of one instant. */
export const statusRank = (status: WithdrawalStatus): number =>
  Math.max(0, ...withdrawalStatuses.filter((s) => WITHDRAWAL_MOVES[s].includes(status)).map((s) => statusRank(s) + 1))

export const withdrawalEventSchema = z.object({
  status: z.enum(withdrawalStatuses),
  at: z.number().int(),
  note: z.string().nullable(),
})

export const withdrawalSchema = z.object({
  id: z.string(),
  status: z.enum(withdrawalStatuses),
  /** What left the wallet, fee included. */
  amount: positiveAmount,
  fee: minorUnits,
  /** What arrives in the bank: amount − fee. */
  received: positiveAmount,
  currency: currencyCode,
  bankCard: z.object({ id: z.string(), bankName: z.string(), accountName: z.string(), maskedNumber: z.string() }),
  /** The bank's payout reference, once paid. */
  reference: z.string().nullable(),
  /** The provider's transfer code and the bank's session id (automatic payouts), for the receipt. */
  transferCode: z.string().nullable().default(null),
  sessionId: z.string().nullable().default(null),
  /** Why it failed, in words for the person. */
  reason: z.string().nullable(),
  /** Waiting for the company's payout balance (decision 038): "queued, sending shortly", never failed. */
  queued: z.boolean().default(false),
  /** The promise: in the bank by then (epoch ms). */
  expectedBy: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  events: z.array(withdrawalEventSchema),
})
export type Withdrawal = z.infer<typeof withdrawalSchema>

/** A client-made key: the same key twice makes one withdrawal (or one sale: contract/orders.ts). */
export const requestIdField = z
  .string({ required_error: 'requestId is required', invalid_type_error: 'requestId must be text' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'requestId must be 8–64 letters, digits, - or _')

/** A fresh key for one form, made by the page that shows it: 32 hex digits, as requestIdField takes. */
export const newRequestId = () => crypto.randomUUID().replace(/-/g, '')

export const createWithdrawalBody = z
  .object({
    bankCardId: z.string({ required_error: 'Choose the bank account' }).min(1, 'Choose the bank account').max(64),
    amount: positiveAmount,
    pin: pinField,
    requestId: requestIdField,
  })
  .strict()
export type CreateWithdrawalBody = z.infer<typeof createWithdrawalBody>

export const withdrawalIdQuery = z.object({ id: z.string({ required_error: 'id is required' }).min(1, 'id is required').max(64) })

export const withdrawalPageQuery = pageQuerySchema.extend({ status: z.enum(withdrawalStatuses).optional() })

export const withdrawalsApi = {
  create: post('/v1/withdraw/create', 'user', createWithdrawalBody, withdrawalSchema),
  detail: get('/v1/withdraw/detail', 'user', withdrawalIdQuery, withdrawalSchema),
  page: get('/v1/withdraw/page', 'user', withdrawalPageQuery, pageSchema(withdrawalSchema)),
}
