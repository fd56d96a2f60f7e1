import { z } from 'zod'
import { get, post } from '../endpoint'
import { pageSchema } from '../envelope'
import { signedAmount } from '../money-fields'
import { BalanceLogType, balanceLogEntry } from '../wallet'
import { requestIdField, withdrawalPageQuery, withdrawalSchema, withdrawalStatuses } from '../withdrawals'
import { deskAuth } from './desks'

/**
 * Operators (no role in the app's screens): staff members by role (contract/ops/staff.ts), the books
 * check and stats also for automation with ADMIN_TOKEN. `npm run ops` calls these over HTTP.
 * Every action lands in the audit log under the signed-in staff member.
 */
export const adjustBody = z
  .object({
    userId: z.string().min(1).max(64),
    amount: signedAmount,
    reason: z.string().trim().min(3, 'reason: say why, for the audit log').max(500),
    requestId: requestIdField,
  })
  .strict()

export const updateWithdrawalBody = z
  .object({
    id: z.string().min(1).max(64),
    status: z.enum(withdrawalStatuses),
    reference: z.string().trim().min(1).max(120).optional(),
    reason: z.string().trim().min(3).max(500).optional(),
  })
  .strict()
  .refine((b) => b.status !== 'success' || b.reference, { message: 'A paid withdrawal needs the payout reference', path: ['reference'] })
  .refine((b) => b.status !== 'failed' || b.reason, { message: 'A failed withdrawal needs a reason the person can read', path: ['reason'] })

export const personQuery = z
  .object({ email: z.string().trim().toLowerCase().max(254).optional(), id: z.string().max(64).optional() })
  .refine((q) => q.email || q.id, { message: 'Give email or id' })

export const personData = z.object({
  userId: z.string(),
  email: z.string(),
  userName: z.string(),
  balance: z.number().int(),
  frozen: z.number().int(),
  currency: z.string(),
  /** The rest of the admin desk's profile (never a secret: no token, password or PIN). */
  createdAt: z.number().int(),
  bankAccounts: z.array(
    z.object({
      bankName: z.string(),
      maskedNumber: z.string(),
      accountName: z.string(),
      isDefault: z.boolean(),
      createdAt: z.number().int(),
    }),
  ),
  /** Sign-ins, newest first (at most 20): when each began, ends, and whether it is still live. */
  sessions: z.array(z.object({ createdAt: z.number().int(), expiresAt: z.number().int(), live: z.boolean() })),
  /** The newest 20 of each. */
  orders: z.array(
    z.object({
      id: z.string(),
      orderNo: z.string(),
      brandId: z.string(),
      status: z.string(),
      payout: z.number().int(),
      createdAt: z.number().int(),
    }),
  ),
  withdrawals: z.array(z.object({ id: z.string(), amount: z.number().int(), status: z.string(), createdAt: z.number().int() })),
})

/** Wallets whose balances differ from the sum of their entries (empty when the books balance). */
export const booksData = z.object({
  checkedAt: z.number().int(),
  wallets: z.number().int(),
  mismatches: z.array(
    z.object({ userId: z.string(), balance: z.number(), frozen: z.number(), sumAmount: z.number(), sumFrozen: z.number() }),
  ),
})

/**
 * The payout desk's view of an automatic payout (null: an operator pays it by hand): the provider,
 * its own state word as last heard, how often a worker took it, when a transfer was first sent,
 * and whether it waits for an operator's approval (over AUTO_PAYOUT_MAX, or a flagged name).
 */
export const deskPayoutSchema = z.object({
  provider: z.string(),
  state: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  sentAt: z.number().int().nullable(),
  approvedAt: z.number().int().nullable(),
  awaitingApproval: z.boolean(),
  /** Decision 038: since when the provider's answers leave it unknown; when it was put before a person; what is known. */
  unknownSince: z.number().int().nullable().default(null),
  needsPersonAt: z.number().int().nullable().default(null),
  problem: z.string().nullable().default(null),
  /** Two answers that contradict each other, until a person resolves it. */
  conflict: z.string().nullable().default(null),
  /** What the provider charged for the transfer (fee_charged), minor units. */
  providerFee: z.number().int().nullable().default(null),
  /** Pending or processing longer than PAYOUT_STUCK_MINUTES. */
  stuck: z.boolean().default(false),
})

export const deskWithdrawalSchema = withdrawalSchema.extend({
  userId: z.string(),
  email: z.string(),
  /** The bank account's saved holder name is far from the profile's name: look before paying. */
  nameFlagged: z.boolean().default(false),
  /** The person's name on their profile, to compare with the holder's. */
  userName: z.string().default(''),
  payout: deskPayoutSchema.nullable().default(null),
})
export type DeskWithdrawal = z.infer<typeof deskWithdrawalSchema>

/**
 * Bank accounts saved by more than one account (the throw-away-accounts signal): each with the
 * accounts that saved it, where each signed up from (an IPv6 caller by its /64), what task rewards
 * each was credited, and which account the bank account earned rewards for.
 */
export const sharedBankAccountsQuery = z
  .object({ limit: z.coerce.number({ invalid_type_error: 'limit must be a number' }).int().min(1).max(200).default(50) })
  .strict()
export const sharedBankAccountsData = z.array(
  z.object({
    bankName: z.string(),
    maskedNumber: z.string(),
    rewardsEarnedBy: z.string().nullable(),
    accounts: z.array(
      z.object({
        userId: z.string(),
        email: z.string(),
        signupAddress: z.string().nullable(),
        createdAt: z.number().int(),
        rewards: z.number().int(),
      }),
    ),
  }),
)
export type SharedBankAccountsData = z.infer<typeof sharedBankAccountsData>

/** An adjustment over ADJUSTMENT_APPROVAL_MIN: no money moved until a second admin approves. */
export const adjustmentRequestSchema = z.object({
  type: z.literal('adjustment_request'),
  id: z.string(),
  userId: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  requestId: z.string(),
  maker: z.string(),
  /** lapsed: its maker was disabled, locked or is no longer an admin (decision 041). */
  status: z.enum(['pending', 'approved', 'declined', 'lapsed']),
  checker: z.string().nullable(),
  createdAt: z.number().int(),
})
export type AdjustmentRequest = z.infer<typeof adjustmentRequestSchema>

/**
 * A waiting adjustment as the checker sees it: the person by e-mail with their balance now, and
 * how many other waiting requests are alike (same person, amount and reason within 24 hours).
 */
const pendingAdjustmentSchema = adjustmentRequestSchema.extend({
  email: z.string(),
  balance: z.number().int(),
  alike: z.number().int().nonnegative(),
})
export type PendingAdjustment = z.infer<typeof pendingAdjustmentSchema>

export const adjustmentEntry = balanceLogEntry.extend({ type: z.literal(BalanceLogType.ADJUSTMENT) })

export const opsMoneyApi = {
  /** Moves the money at once (the entry), or, over ADJUSTMENT_APPROVAL_MIN, asks a second admin (the request). */
  adjust: post(
    '/admin/wallet/adjust',
    deskAuth('people'),
    adjustBody,
    z.discriminatedUnion('type', [adjustmentEntry, adjustmentRequestSchema]),
  ),
  pendingAdjustments: get('/admin/wallet/adjust/pending', deskAuth('people'), z.object({}), z.array(pendingAdjustmentSchema)),
  /**
   * Another admin than the maker, confirmed, linked to the maker by no invite, reset or promotion,
   * and confirmed before the request was made: the money moves once (approving again answers the same entry).
   */
  approveAdjustment: post(
    '/admin/wallet/adjust/approve',
    deskAuth('people'),
    z.object({ id: z.string().min(1).max(64) }).strict(),
    adjustmentEntry,
  ),
  declineAdjustment: post(
    '/admin/wallet/adjust/decline',
    deskAuth('people'),
    z.object({ id: z.string().min(1).max(64) }).strict(),
    adjustmentRequestSchema,
  ),
  withdrawals: get('/admin/withdraw/page', deskAuth('payouts'), withdrawalPageQuery, pageSchema(deskWithdrawalSchema)),
  updateWithdrawal: post('/admin/withdraw/update', deskAuth('payouts'), updateWithdrawalBody, deskWithdrawalSchema),
  user: get('/admin/user', deskAuth('people'), personQuery, personData),
  /** Automatic payouts above AUTO_PAYOUT_MAX wait for this before the worker sends them. */
  approveWithdrawal: post(
    '/admin/withdraw/approve',
    deskAuth('payouts'),
    z.object({ id: z.string().min(1).max(64) }).strict(),
    deskWithdrawalSchema,
  ),
  books: get('/admin/books', 'automation', z.object({}), booksData),
  sharedBankAccounts: get('/admin/signals/sharedBankAccounts', deskAuth('people'), sharedBankAccountsQuery, sharedBankAccountsData),
}

/** A calendar day, YYYY-MM-DD, in the installation's time zone (the wallet's). */
const dayField = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name}: a day like 2025-01-31`)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
      message: `${name}: not a day of the calendar`,
    })

/** The funnel's days, both included; without them the last 30 days up to today. */
export const funnelQuery = z
  .object({ from: dayField('from').optional(), to: dayField('to').optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from: must not be after to', path: ['from'] })

/**
 * The analytics funnel over the days asked (analytics events only, so people with Do Not Track or
 * Global Privacy Control are in no step): distinct visitors with a page view, then people whose
 * registration, first order and first withdrawal fell in those days.
 */
export const funnelData = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  visits: z.number().int().nonnegative(),
  registrations: z.number().int().nonnegative(),
  firstOrders: z.number().int().nonnegative(),
  firstWithdrawals: z.number().int().nonnegative(),
})
export type FunnelData = z.infer<typeof funnelData>

/** A day of automatic payouts against the provider's transfers of that day (its time zone: the wallet's). */
export const reconcileQuery = z.object({ date: dayField('date') }).strict()

const reconcileLine = z.object({
  reference: z.string(),
  ours: z.string().nullable(),
  theirs: z.string().nullable(),
  problem: z.string(),
  /** What a person does about it. */
  action: z.string().default(''),
})
const unreadableRow = z.object({ page: z.number().int(), status: z.string(), reference: z.string().nullable(), problem: z.string() })

export const reconcileData = z.object({
  date: z.string(),
  provider: z.string(),
  /** Our payouts sent that day. */
  checked: z.number().int().nonnegative(),
  differences: z.array(reconcileLine),
  /** Rows of Paystack's list that could not be read: reported, never fatal. */
  unreadable: z.array(unreadableRow).default([]),
})

/** The last 7 days, as the daily run does (its banner too). */
export const reconcileRecentData = reconcileData.omit({ date: true }).extend({ from: z.number().int(), to: z.number().int() })

const idBody = z.object({ id: z.string().min(1).max(64) })

/** What needs a person on the payout desk (decision 038): banners and the payouts to look at. */
export const payoutAttentionData = z.object({
  alerts: z.array(z.object({ kind: z.string(), message: z.string(), amount: z.number().int().nullable(), raisedAt: z.number().int() })),
  conflicts: z.array(deskWithdrawalSchema),
  needsPerson: z.array(deskWithdrawalSchema),
  otp: z.array(deskWithdrawalSchema),
  stuck: z.array(deskWithdrawalSchema),
})
export type PayoutAttention = z.infer<typeof payoutAttentionData>

export const opsPayoutsApi = {
  reconcile: get('/admin/payouts/reconcile', deskAuth('payouts'), reconcileQuery, reconcileData),
  reconcileRecent: post('/admin/payouts/reconcileRecent', deskAuth('payouts'), z.object({}).strict(), reconcileRecentData),
  attention: get('/admin/payouts/attention', deskAuth('payouts'), z.object({}), payoutAttentionData),
  /** The business's transfer OTP (never stored or logged): Paystack's finalize_transfer. */
  finalizeOtp: post(
    '/admin/withdraw/finalizeOtp',
    deskAuth('payouts'),
    idBody
      .extend({
        otp: z
          .string()
          .trim()
          .regex(/^\d{4,8}$/, 'The OTP is 4–8 digits'),
      })
      .strict(),
    deskWithdrawalSchema,
  ),
  /** A person settled a conflict outside: it leaves the desk, audited with their note. */
  resolveConflict: post(
    '/admin/withdraw/resolveConflict',
    deskAuth('payouts'),
    idBody.extend({ note: z.string().trim().min(3, 'Say in a few words what was done').max(500) }).strict(),
    deskWithdrawalSchema,
  ),
}

export const opsAnalyticsApi = {
  funnel: get('/admin/analytics/funnel', 'automation', funnelQuery, funnelData),
}
