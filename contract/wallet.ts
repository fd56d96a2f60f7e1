import { z } from 'zod'
import { autoWithdrawalSchema } from './auto-withdrawal'
import { bankCardSchema } from './bank-cards'
import { get } from './endpoint'
import { pageQuerySchema, pageSchema } from './envelope'
import { currencyCode, minorUnits } from './money-fields'
import { withdrawalSchema } from './withdrawals'

/** How fast payouts reached the bank over the last days (Withdraw says it): null figures when too few were paid. */
export const payoutSpeedSchema = z.object({
  days: z.number().int().positive(),
  /** Paid withdrawals counted (request to paid). */
  paid: z.number().int().nonnegative(),
  medianMinutes: z.number().int().nonnegative().nullable(),
  p90Minutes: z.number().int().nonnegative().nullable(),
})
export type PayoutSpeed = z.infer<typeof payoutSpeedSchema>

/**
 * The wallet (DESIGN §3): `balance` is what can be withdrawn now, `frozen` what is on hold for
 * withdrawals on their way. Every change of either is one balance-log entry, written by the
 * ledger (api/services/ledger.ts) in the same transaction.
 */
export const BalanceLogType = {
  ORDER_PAYOUT: 'order_payout',
  WITHDRAW: 'withdraw',
  WITHDRAW_PAID: 'withdraw_paid',
  WITHDRAW_REFUND: 'withdraw_refund',
  /** A paid withdrawal the bank sent back: the full amount, fee included, returns once. */
  WITHDRAW_REVERSAL: 'withdraw_reversal',
  TASK_REWARD: 'task_reward',
  ADJUSTMENT: 'adjustment',
} as const
export type BalanceLogType = (typeof BalanceLogType)[keyof typeof BalanceLogType]
export const balanceLogTypes = Object.values(BalanceLogType) as [BalanceLogType, ...BalanceLogType[]]

/** What a movement points at: the order or withdrawal behind it. */
export const refTypes = ['order', 'withdrawal', 'task', 'adjustment'] as const
export type RefType = (typeof refTypes)[number]

export const withdrawLimitsSchema = z.object({
  /** Smallest withdrawal, fee included. */
  min: minorUnits,
  /** Most that can leave the wallet in one day (fees included). */
  dailyMax: minorUnits,
  /** What is left of dailyMax today. */
  remainingToday: minorUnits,
  /** Charged on each withdrawal, taken from the amount. */
  fee: minorUnits,
  /** The promise: a withdrawal is in the bank within this many hours. */
  payoutHours: z.number().int().positive(),
  /** Time zone of "today" for the daily maximum. */
  timeZone: z.string(),
  /** When today ends there (epoch ms): the daily maximum starts again. */
  dayEndsAt: z.number().int(),
})

export const pinStateSchema = z.object({
  hasPin: z.boolean(),
  /** Set while PIN actions are locked after too many wrong PINs (epoch ms). */
  lockedUntil: z.number().int().nullable(),
  /** Wrong PINs left before the lock. */
  triesLeft: z.number().int().nonnegative(),
  /** After a PIN reset by e-mail code, withdrawals wait until then (epoch ms). */
  withdrawBlockedUntil: z.number().int().nullable(),
})
export type PinState = z.infer<typeof pinStateSchema>

/**
 * How withdrawals are paid: `manual` (an operator pays by hand, within payoutHours) or through a
 * provider (`automatic`): then amounts up to `autoPayoutMax` are sent at once and arrive within
 * `automaticMinutes`; above it an operator approves first. `resolvesNames`: Add Bank Card shows the
 * bank's holder name to confirm (the typed name is not asked).
 */
export const payoutModeSchema = z.object({
  mode: z.enum(['manual', 'automatic']),
  autoPayoutMax: minorUnits,
  automaticMinutes: z.number().int().positive(),
  resolvesNames: z.boolean(),
})
export type PayoutMode = z.infer<typeof payoutModeSchema>

const MANUAL_PAYOUTS: PayoutMode = { mode: 'manual', autoPayoutMax: 0, automaticMinutes: 15, resolvesNames: false }

export const walletInfoData = z.object({
  balance: minorUnits,
  frozen: minorUnits,
  currency: currencyCode,
  hasPin: z.boolean(),
  pin: pinStateSchema,
  limits: withdrawLimitsSchema,
  bankCardCount: z.number().int().nonnegative(),
  payouts: payoutModeSchema.default(MANUAL_PAYOUTS),
})
export type WalletInfo = z.infer<typeof walletInfoData>

export const balanceLogEntry = z.object({
  id: z.string(),
  type: z.enum(balanceLogTypes),
  /** Signed change of the available balance. */
  amount: z.number().int(),
  balanceAfter: minorUnits,
  /** Signed change of the amount on hold. */
  frozenChange: z.number().int(),
  frozenAfter: minorUnits,
  refType: z.enum(refTypes).nullable(),
  refId: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.number().int(),
  /** For a withdrawal's entries: its fee and what reached (or will reach) the bank. */
  withdrawal: z.object({ fee: minorUnits, received: minorUnits }).nullable().default(null),
})
export type BalanceLogEntry = z.infer<typeof balanceLogEntry>

export const balanceLogPage = pageSchema(balanceLogEntry)

/**
 * The Wallet screen in one answer: the balances, a page of the activity, and the withdrawals on
 * their way (pending and processing, the soonest due first) — one call a page instead of four.
 */
export const walletOverviewData = z.object({
  info: walletInfoData,
  log: balanceLogPage,
  onTheirWay: z.array(withdrawalSchema),
  /** Whether each order's credit is sent on to the bank by itself (contract/auto-withdrawal.ts). */
  autoWithdrawal: autoWithdrawalSchema.nullable().default(null),
})
export type WalletOverview = z.infer<typeof walletOverviewData>

/** How many withdrawals on their way the overview lists (a person rarely has more than one or two). */
export const ON_THEIR_WAY_MAX = 10

/** The Withdraw screen in one answer: /v1/wallet/info's and /v1/bankCard/list's, read together. */
export const withdrawFormData = z.object({
  info: walletInfoData,
  bankCards: z.array(bankCardSchema),
  /** How fast payouts reached the bank last week (`payoutSpeedSchema` above). */
  payoutSpeed: payoutSpeedSchema.nullable().default(null),
})
export type WithdrawForm = z.infer<typeof withdrawFormData>

export const walletApi = {
  info: get('/v1/wallet/info', 'user', z.object({}), walletInfoData),
  pageBalanceLog: get('/v1/user/pageBalanceLog', 'user', pageQuerySchema, balanceLogPage),
  overview: get('/v1/wallet/overview', 'user', pageQuerySchema, walletOverviewData),
  withdrawForm: get('/v1/wallet/withdrawForm', 'user', z.object({}), withdrawFormData),
}
