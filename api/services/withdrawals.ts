import { createHash } from 'node:crypto'
import { formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import { BalanceLogType } from '#contract/wallet'
import { canMove, statusRank, WithdrawalStatus, type CreateWithdrawalBody, type Withdrawal } from '#contract/withdrawals'
import { isUniqueViolation } from '../db/connect'
import type { Db } from '../db/connect'
import type { BankCardRow, User, WithdrawalRow } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { dayBounds } from '../lib/day'
import { refuse, refuseSaying } from '../lib/envelope'
import { newId } from '../lib/tokens'
import { audit } from '../models/audit-log'
import { findBankCard, findOwnBankCard, lockOwnBankCard } from '../models/bank-cards'
import { addNotification } from '../models/notifications'
import { bankAccountKey, claimForRewards, rewardsCredited } from '../models/reward-bank-accounts'
import { findUserById } from '../models/users'
import {
  addWithdrawalEvent,
  findByRequestId,
  findOwnWithdrawal,
  insertWithdrawal,
  moveWithdrawal,
  pageWithdrawals,
  withdrawalEvents,
  withdrawnSince,
} from '../models/withdrawals'
import { toBankCard } from './bank-cards'
import { InsufficientFunds, lockWallet, move, requestDigest } from './ledger'
import { withPin } from './pin'

/**
 * Withdrawals: the hold at creation, and the operator's moves to processing, success (the hold
 * leaves the wallet) or failed (the hold returns to the balance). Money moves only through the
 * ledger, in the same transaction as the status change.
 */

const HOUR = 3_600_000
/** What an automatic payout under the approval line promises: minutes, not hours. */
export const AUTOMATIC_PROMISE = 15 * 60_000

/**
 * The provider's reference for a withdrawal (its idempotency key): lowercase, 16–50 characters of
 * [a-z0-9_-]. Our ids (UUIDs) already are; anything else gets a digest that stays the same.
 */
export function payoutReferenceOf(id: string): string {
  return /^[a-z0-9_-]{16,50}$/.test(id) ? id : `wd_${createHash('sha256').update(id).digest('hex').slice(0, 40)}`
}

export async function toWithdrawal(deps: ApiDeps, row: WithdrawalRow): Promise<Withdrawal> {
  const [card, events] = await Promise.all([findBankCard(deps.db, row.bank_card_id), withdrawalEvents(deps.db, [row.id])])
  const shown = card && toBankCard(card, row.currency)
  return {
    id: row.id,
    status: row.status as WithdrawalStatus,
    amount: Number(row.amount),
    fee: Number(row.fee),
    received: Number(row.amount) - Number(row.fee),
    currency: row.currency,
    bankCard: shown
      ? { id: shown.id, bankName: shown.bankName, accountName: shown.accountName, maskedNumber: shown.maskedNumber }
      : { id: row.bank_card_id, bankName: 'Bank account', accountName: '', maskedNumber: '' },
    reference: row.reference,
    transferCode: row.transfer_code,
    sessionId: row.bank_session_id,
    reason: row.reason,
    queued: row.status === 'pending' && row.payout_state === 'queued',
    expectedBy: Number(row.expected_by),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    // Statuses only move forward, so within one millisecond their order is the order of the moves.
    events: events
      .map((e) => ({ status: e.status as WithdrawalStatus, at: Number(e.at), note: e.note }))
      .sort((a, b) => a.at - b.at || statusRank(a.status) - statusRank(b.status)),
  }
}

/** What is left of today's maximum for this person. */
export async function remainingToday(deps: ApiDeps, db: ApiDeps['db'], userId: string, now: number) {
  const { start, end } = dayBounds(now, deps.config.wallet.timeZone)
  const used = await withdrawnSince(db, userId, start)
  return { remaining: Math.max(0, deps.config.wallet.withdrawDailyMax - used), dayEndsAt: end }
}

const digestOf = (body: Pick<CreateWithdrawalBody, 'bankCardId' | 'amount'>) =>
  requestDigest({ bankCardId: body.bankCardId, amount: body.amount })

/** The same requestId again: the first withdrawal, or a refusal when the body differs. */
function repeatOf(row: WithdrawalRow, body: Pick<CreateWithdrawalBody, 'bankCardId' | 'amount'>): WithdrawalRow {
  if (row.request_hash !== digestOf(body)) throw refuse(Refusals.IDEMPOTENCY_KEY_REUSED)
  return row
}

export async function createWithdrawal(deps: ApiDeps, user: User, body: CreateWithdrawalBody): Promise<Withdrawal> {
  const { wallet } = deps.config
  const seen = await findByRequestId(deps.db, user.id, body.requestId)
  if (seen) return toWithdrawal(deps, repeatOf(seen, body))
  const card = await findOwnBankCard(deps.db, user.id, body.bankCardId)
  if (!card) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
  if (body.amount < wallet.withdrawMin) {
    throw refuse(Refusals.BELOW_MINIMUM, { min: formatMoney(wallet.withdrawMin, wallet.currency) })
  }
  if (body.amount <= wallet.withdrawFee) throw refuse(Refusals.AMOUNT_BELOW_FEE, { fee: formatMoney(wallet.withdrawFee, wallet.currency) })

  const row = await withPin(deps, user.id, body.pin, async (pin) => {
    const now = deps.now()
    if (pin.withdraw_blocked_until !== null && Number(pin.withdraw_blocked_until) > now) {
      const until = new Intl.DateTimeFormat('en-GB', { timeZone: wallet.timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(
        Number(pin.withdraw_blocked_until),
      )
      throw refuse(Refusals.PIN_RECENTLY_RESET, { until })
    }
    return placeWithdrawal(deps, user, body, now)
  }).catch(async (err: unknown) => {
    // Two instances raced past the checks with one key: the unique index kept one; answer it.
    if (isUniqueViolation(err)) {
      const winner = await findByRequestId(deps.db, user.id, body.requestId)
      if (winner) return repeatOf(winner, body)
    }
    throw err
  })
  return toWithdrawal(deps, row)
}

/**
 * The hold of a withdrawal, in one write transaction: the same requestId answers the first one;
 * the bank account (locked), the rewards rule, today's maximum and the balance are checked; the
 * row, its first event, the hold and the notification are written. The caller has checked the
 * person's PIN (createWithdrawal), or their standing consent (auto-withdrawal). `notice` words the
 * notification instead of the usual one.
 */
export async function placeWithdrawal(
  deps: ApiDeps,
  user: User,
  body: Omit<CreateWithdrawalBody, 'pin'>,
  now: number,
  notice?: (money: string, card: BankCardRow) => { title: string; content: string },
): Promise<WithdrawalRow> {
  const { wallet } = deps.config
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const again = await findByRequestId(trx, user.id, body.requestId)
    if (again) return repeatOf(again, body)
    // Checked again here, locked: the bank account may have been removed since the first look.
    const card = await lockOwnBankCard(trx, deps.dbKind, user.id, body.bankCardId)
    if (!card) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
    const walletRow = await lockWallet(trx, deps.dbKind, user.id, wallet.currency, now)
    // Rewards pay once per person: to a bank account that earned them for another account, this
    // person's own rewards stay in the wallet (claimed before any bank account was saved).
    const rewards = await rewardsCredited(trx, user.id)
    if (rewards > 0) {
      const { heldByOther } = await claimForRewards(trx, user.id, [bankAccountKey(wallet.pinPepper, card)], now)
      if (heldByOther && body.amount > Number(walletRow.balance) - rewards) throw refuse(Refusals.REWARD_HELD)
    }
    const { remaining } = await remainingToday(deps, trx, user.id, now)
    if (body.amount > remaining) {
      throw remaining > 0
        ? refuse(Refusals.OVER_DAILY_MAX, { left: formatMoney(remaining, wallet.currency) })
        : refuseSaying(Refusals.OVER_DAILY_MAX, 'You have reached today’s withdrawal maximum. Try again tomorrow')
    }
    if (Number(walletRow.balance) < body.amount) throw refuse(Refusals.INSUFFICIENT_BALANCE)
    const automatic = deps.payouts.name !== 'manual'
    // Above the line, or to an account whose holder is far from the profile's name: the desk looks first.
    const needsApproval = body.amount > deps.config.payouts.autoPayoutMax || card.name_flagged === 1
    const created: WithdrawalRow = {
      id: newId(),
      user_id: user.id,
      bank_card_id: body.bankCardId,
      request_id: body.requestId,
      request_hash: digestOf(body),
      amount: body.amount,
      fee: wallet.withdrawFee,
      currency: wallet.currency,
      status: WithdrawalStatus.PENDING,
      reference: null,
      reason: null,
      expected_by: now + (automatic && !needsApproval ? AUTOMATIC_PROMISE : wallet.payoutHours * HOUR),
      created_at: now,
      updated_at: now,
      payout_provider: automatic ? deps.payouts.name : null,
      payout_reference: null,
      // Above the approval line the worker waits for an operator (admin approve).
      payout_next_at: automatic && !needsApproval ? now : null,
      payout_lease_until: null,
      payout_sent_at: null,
      payout_state: null,
      payout_attempts: 0,
      approved_at: null,
      transfer_code: null,
      bank_session_id: null,
      payout_unknown_since: null,
      payout_needs_person_at: null,
      payout_problem: null,
      payout_conflict: null,
      payout_conflict_at: null,
      payout_fee: null,
    }
    created.payout_reference = automatic ? payoutReferenceOf(created.id) : null
    await insertWithdrawal(trx, created)
    await addWithdrawalEvent(trx, created.id, WithdrawalStatus.PENDING, null, now)
    try {
      await move(
        trx,
        {
          userId: user.id,
          type: BalanceLogType.WITHDRAW,
          amount: -body.amount,
          frozenChange: body.amount,
          refType: 'withdrawal',
          refId: created.id,
          key: `withdraw:${created.id}:hold`,
        },
        wallet.currency,
        now,
      )
    } catch (err) {
      if (err instanceof InsufficientFunds) throw refuse(Refusals.INSUFFICIENT_BALANCE)
      throw err
    }
    const money = formatMoney(body.amount - wallet.withdrawFee, wallet.currency)
    await addNotification(
      trx,
      {
        userId: user.id,
        kind: 'withdrawal',
        refId: created.id,
        ...(notice?.(money, card) ?? {
          title: 'Withdrawal requested',
          content: `${money} is on its way to your bank. It is on hold in your wallet until it is paid.`,
        }),
      },
      now,
    )
    return created
  })
}

export async function withdrawalDetail(deps: ApiDeps, user: User, id: string): Promise<Withdrawal> {
  const row = await findOwnWithdrawal(deps.db, user.id, id)
  if (!row) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  return toWithdrawal(deps, row)
}

export async function withdrawalPage(deps: ApiDeps, user: User, q: { pageNum: number; pageSize: number; status?: string }) {
  const { rows, total } = await pageWithdrawals(deps.db, { userId: user.id, status: q.status }, q.pageNum, q.pageSize)
  return { list: await Promise.all(rows.map((r) => toWithdrawal(deps, r))), total, pageNum: q.pageNum, pageSize: q.pageSize }
}

const STATUS_NOTIFICATIONS: Record<string, (w: WithdrawalRow, money: string, full: string) => { title: string; content: string }> = {
  processing: (_w, money) => ({ title: 'Withdrawal processing', content: `We are sending ${money} to your bank now.` }),
  success: (w, money) => ({ title: 'Withdrawal paid', content: `${money} was paid to your bank. Reference: ${w.reference ?? ''}.` }),
  failed: (w, money) => ({
    title: 'Withdrawal failed',
    content: `We could not pay ${money} to your bank: ${w.reason ?? 'no reason given'}. The full amount is back in your available balance.`,
  }),
  reversed: (_w, money, full) => ({
    title: 'Withdrawal returned by the bank',
    content: `Your bank sent the payout of ${money} back. The full ${full}, fee included, is back in your available balance.`,
  }),
}

/** A reversal before any success: the person was never told "paid". */
const NOT_RECEIVED_NOTIFICATION = (money: string) => ({
  title: 'Withdrawal returned by the bank',
  content: `Your bank could not receive the money (${money}); it is back in your wallet.`,
})

/** What a move may write besides the status. */
export type MoveFields = {
  reference?: string | null
  reason?: string | null
  transfer_code?: string | null
  bank_session_id?: string | null
  payout_next_at?: number | null
  payout_lease_until?: number | null
  payout_unknown_since?: number | null
  payout_needs_person_at?: number | null
  payout_problem?: string | null
  payout_fee?: number | null
}

/**
 * One move of a withdrawal inside the caller's write transaction: the status changes only from
 * `current.status` (false when another move won), with its timeline event, its ledger movement
 * (success: the hold leaves; failed: the hold returns; reversed: the full amount returns, once),
 * the audit entry and the notification to the person.
 */
export async function applyMove(
  trx: Db,
  current: WithdrawalRow,
  to: WithdrawalStatus,
  fields: MoveFields,
  now: number,
  actor: string,
  note: string | null,
): Promise<WithdrawalRow | undefined> {
  const patch = { status: to, ...fields }
  if (!(await moveWithdrawal(trx, current.id, current.status, patch, now))) return undefined
  const next: WithdrawalRow = { ...current, ...patch, updated_at: now }
  await addWithdrawalEvent(trx, current.id, to, note, now)
  const amount = Number(current.amount)
  const base = { userId: current.user_id, refType: 'withdrawal' as const, refId: current.id }
  if (to === 'success') {
    await move(
      trx,
      { ...base, type: BalanceLogType.WITHDRAW_PAID, amount: 0, frozenChange: -amount, key: `withdraw:${current.id}:paid` },
      current.currency,
      now,
    )
  } else if (to === 'failed') {
    await move(
      trx,
      {
        ...base,
        type: BalanceLogType.WITHDRAW_REFUND,
        amount,
        frozenChange: -amount,
        note: next.reason,
        key: `withdraw:${current.id}:refund`,
      },
      current.currency,
      now,
    )
  } else if (to === 'reversed') {
    // Never paid (reversed before any success): the money is still held, and returns from the hold.
    const held = current.status !== 'success'
    await move(
      trx,
      {
        ...base,
        type: BalanceLogType.WITHDRAW_REVERSAL,
        amount,
        frozenChange: held ? -amount : 0,
        note: next.reason,
        key: `withdraw_reversal:${current.id}`,
      },
      current.currency,
      now,
    )
  }
  await audit(trx, { actor, action: `withdrawal.${to}`, targetType: 'withdrawal', targetId: current.id, before: current, after: next }, now)
  const money = formatMoney(amount - Number(current.fee), current.currency)
  await addNotification(
    trx,
    {
      userId: current.user_id,
      kind: 'withdrawal',
      refId: current.id,
      ...(to === 'reversed' && current.status !== 'success'
        ? NOT_RECEIVED_NOTIFICATION(money)
        : STATUS_NOTIFICATIONS[to](next, money, formatMoney(amount, current.currency))),
      ...(to === 'success' && { notify: { kind: 'withdrawal_paid', summary: 'Your withdrawal was paid to your bank.' } }),
      ...((to === 'failed' || to === 'reversed') && {
        notify: { kind: 'withdrawal_failed', summary: 'A withdrawal did not reach your bank: the money is back in your wallet.' },
      }),
    },
    now,
  )
  return next
}

export const lockWithdrawal = (trx: Db, kind: ApiDeps['dbKind'], id: string) =>
  trx
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

/**
 * An operator moves a withdrawal. Repeating the move it already made changes nothing; a finished
 * withdrawal never moves; success releases the hold, failed returns it to the balance — each in
 * the same transaction as the status change, the audit entry and the notification to the person.
 * A provider's payout is the worker's: an operator may only fail it before it is sent.
 */
export async function updateWithdrawal(
  deps: ApiDeps,
  actor: string,
  body: { id: string; status: WithdrawalStatus; reference?: string; reason?: string },
): Promise<{ row: WithdrawalRow; email: string }> {
  const now = deps.now()
  const row = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const current = await lockWithdrawal(trx, deps.dbKind, body.id)
    if (!current) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
    if (current.status === body.status) return current
    if (!canMove(current.status as WithdrawalStatus, body.status, 'operator')) {
      throw refuse(Refusals.WITHDRAWAL_BAD_MOVE, { from: current.status, to: body.status })
    }
    if (current.payout_provider !== null && !(body.status === 'failed' && current.payout_sent_at === null)) {
      throw refuse(Refusals.PAYOUT_AUTOMATIC)
    }
    const next = await applyMove(
      trx,
      current,
      body.status,
      {
        ...(body.status === 'success' && { reference: body.reference ?? null }),
        ...(body.status === 'failed' && { reason: body.reason ?? null, payout_next_at: null }),
      },
      now,
      actor,
      body.status === 'failed' ? (body.reason ?? null) : body.status === 'success' ? `Reference ${body.reference}` : null,
    )
    if (!next) throw refuse(Refusals.WITHDRAWAL_BAD_MOVE, { from: current.status, to: body.status })
    return next
  })
  const owner = await findUserById(deps.db, row.user_id)
  return { row, email: owner?.email ?? '' }
}
