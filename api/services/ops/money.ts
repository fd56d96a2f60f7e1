import { formatMoney } from '#contract/money'
import type { AdjustmentRequest, DeskWithdrawal, PendingAdjustment, SharedBankAccountsData } from '#contract/ops/money'
import { type Refusal, Refusals } from '#contract/refusals'
import { BalanceLogType, type BalanceLogEntry } from '#contract/wallet'
import type { WithdrawalStatus } from '#contract/withdrawals'
import type { Db } from '../../db/connect'
import type { AdjustmentRequestRow, BalanceLogRow, WithdrawalRow } from '../../db/schema'
import { writeTransaction } from '../../db/transaction'
import type { ApiDeps } from '../../deps'
import { findBank } from '../../lib/banks'
import { refuse } from '../../lib/envelope'
import { newId } from '../../lib/tokens'
import type { StaffCaller } from '../../middleware/staff'
import { audit } from '../../models/audit-log'
import { findBankCard, liveBankCards } from '../../models/bank-cards'
import { addNotification } from '../../models/notifications'
import { adjustmentsBy, findAdjustmentRequestByRequestId, insertAdjustmentRequest } from '../../models/ops/adjustment-requests'
import { pendingCheckedRequests } from '../../models/ops/checked-requests'
import { pageOrders } from '../../models/orders'
import { sharedBankAccounts as findSharedBankAccounts } from '../../models/reward-bank-accounts'
import { findUserByEmail, findUserById } from '../../models/users'
import { pageWithdrawals } from '../../models/withdrawals'
import { maskAccountNumber } from '../bank-cards'
import { auditBooks, findWallet, InsufficientFunds, move, toBalanceLogEntry } from '../ledger'
import { toWithdrawal, updateWithdrawal } from '../withdrawals'
import { approveAsChecker, declineAsChecker } from './maker-checker'

/** What operators do (DESIGN §3 /admin): adjust a balance, list and move withdrawals. Audited. */

type AdjustBody = { userId: string; amount: number; reason: string; requestId: string }
type AdjustmentEntry = BalanceLogEntry & { type: 'adjustment' }

const DAY = 86_400_000
const bodyOf = (r: AdjustmentRequestRow): AdjustBody => ({
  userId: r.user_id,
  amount: Number(r.amount),
  reason: r.reason,
  requestId: r.request_id,
})

const toRequest = (r: AdjustmentRequestRow): AdjustmentRequest => ({
  type: 'adjustment_request',
  id: r.id,
  userId: r.user_id,
  amount: Number(r.amount),
  reason: r.reason,
  requestId: r.request_id,
  maker: r.maker,
  status: r.status as AdjustmentRequest['status'],
  checker: r.checker,
  createdAt: Number(r.created_at),
})

/** The money, the audit entry and the notification of one adjustment, in the caller's transaction; once per requestId. */
async function applyAdjustment(deps: ApiDeps, trx: Db, actor: string, body: AdjustBody, now: number, approval?: { maker: string }) {
  const { currency } = deps.config.wallet
  let result
  try {
    result = await move(
      trx,
      {
        userId: body.userId,
        type: BalanceLogType.ADJUSTMENT,
        amount: body.amount,
        refType: 'adjustment',
        refId: body.requestId,
        note: body.reason,
        key: `adjust:${body.requestId}`,
      },
      currency,
      now,
    )
  } catch (err) {
    if (err instanceof InsufficientFunds) throw refuse(Refusals.ADJUSTMENT_TOO_LARGE)
    throw err
  }
  if (result.repeated) return result.entry
  // Maker-checker: both names in the log (the checker acts, the maker asked).
  const after = approval ? { entry: result.entry, maker: approval.maker, checker: actor } : result.entry
  await audit(trx, { actor, action: 'wallet.adjust', targetType: 'user', targetId: body.userId, before: null, after }, now)
  await addNotification(
    trx,
    {
      userId: body.userId,
      kind: 'wallet',
      title: body.amount > 0 ? 'Wallet credited' : 'Wallet debited',
      content: `${formatMoney(body.amount, currency, { signed: true })}: ${body.reason}`,
    },
    now,
  )
  return result.entry
}

/**
 * An adjustment: at once while this admin's adjustments of this person over 24 hours (this one
 * included) stay within ADJUSTMENT_APPROVAL_MIN; beyond, a request that moves nothing until another
 * admin approves it. The same requestId again answers the same adjustment or request. A debit
 * larger than the balance is refused now, not queued.
 */
export async function adjustBalance(deps: ApiDeps, actor: string, body: AdjustBody): Promise<AdjustmentEntry | AdjustmentRequest> {
  const now = deps.now()
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    if (!(await findUserById(trx, body.userId))) throw refuse(Refusals.USER_NOT_FOUND)
    const asked = await findAdjustmentRequestByRequestId(trx, body.requestId)
    // The same requestId for another adjustment: a mistake, never the first one answered as if it were this.
    if (asked && (asked.user_id !== body.userId || Number(asked.amount) !== body.amount || asked.reason !== body.reason))
      throw refuse(Refusals.IDEMPOTENCY_KEY_REUSED)
    if (asked?.status === 'applied')
      return toBalanceLogEntry(await applyAdjustment(deps, trx, actor, bodyOf(asked), now)) as AdjustmentEntry
    if (asked) return toRequest(asked)
    if (body.amount < 0 && Number((await findWallet(trx, body.userId))?.balance ?? 0) < -body.amount)
      throw refuse(Refusals.ADJUSTMENT_TOO_LARGE)
    const before = await adjustmentsBy(trx, actor, body.userId, now - DAY)
    const total = before.reduce((sum, r) => sum + Math.abs(Number(r.amount)), Math.abs(body.amount))
    const needsChecker = total > deps.config.wallet.adjustmentApprovalMin
    const row: AdjustmentRequestRow = {
      id: newId(),
      user_id: body.userId,
      amount: body.amount,
      reason: body.reason,
      request_id: body.requestId,
      maker: actor,
      status: needsChecker ? 'pending' : 'applied',
      checker: null,
      created_at: now,
      decided_at: needsChecker ? null : now,
    }
    await insertAdjustmentRequest(trx, row)
    if (!needsChecker) return toBalanceLogEntry(await applyAdjustment(deps, trx, actor, body, now)) as AdjustmentEntry
    await audit(
      trx,
      { actor, action: 'wallet.adjust.request', targetType: 'user', targetId: body.userId, before: null, after: toRequest(row) },
      now,
    )
    return toRequest(row)
  })
}

/** The checker's queue: each person by e-mail with their balance now, and requests alike marked. */
export async function pendingAdjustments(deps: ApiDeps): Promise<PendingAdjustment[]> {
  const rows = await pendingCheckedRequests(deps.db, 'adjustment_requests')
  const people = new Map<string, { email: string; balance: number }>()
  for (const userId of new Set(rows.map((r) => r.user_id))) {
    const [user, wallet] = await Promise.all([findUserById(deps.db, userId), findWallet(deps.db, userId)])
    people.set(userId, { email: user?.email ?? '', balance: Number(wallet?.balance ?? 0) })
  }
  const alike = (r: AdjustmentRequestRow) =>
    rows.filter(
      (o) =>
        o.id !== r.id &&
        o.user_id === r.user_id &&
        Number(o.amount) === Number(r.amount) &&
        o.reason.toLowerCase() === r.reason.toLowerCase() &&
        Math.abs(Number(o.created_at) - Number(r.created_at)) <= DAY,
    ).length
  return rows.map((r) => ({ ...toRequest(r), ...people.get(r.user_id)!, alike: alike(r) }))
}

type Outcome<T> = { refusal: Refusal } | { ok: T }

/**
 * A second admin approves: the money moves once, in the same transaction as the decision. Who may
 * is services/ops/maker-checker.ts; a request whose maker no longer stands lapses (kept, so refused).
 */
export async function approveAdjustment(deps: ApiDeps, caller: StaffCaller, id: string): Promise<AdjustmentEntry> {
  const now = deps.now()
  const outcome: Outcome<BalanceLogRow> = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const checked = await approveAsChecker(trx, deps.dbKind, caller, 'adjustment', id, now)
    if ('refusal' in checked) return checked
    // Approved already: the ledger's key answers the same entry and moves nothing.
    const extra = checked.again ? undefined : { maker: checked.row.maker }
    return { ok: await applyAdjustment(deps, trx, caller.actor, bodyOf(checked.row), now, extra) }
  })
  if ('refusal' in outcome) throw refuse(outcome.refusal)
  return toBalanceLogEntry(outcome.ok) as AdjustmentEntry
}

export async function declineAdjustment(deps: ApiDeps, actor: string, id: string): Promise<AdjustmentRequest> {
  const now = deps.now()
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const checked = await declineAsChecker(trx, deps.dbKind, actor, 'adjustment', id, now)
    if ('refusal' in checked) throw refuse(checked.refusal)
    const req = checked.row
    const after = { ...req, status: 'declined', checker: actor, decided_at: now }
    await audit(
      trx,
      {
        actor,
        action: 'wallet.adjust.decline',
        targetType: 'user',
        targetId: req.user_id,
        before: toRequest(req),
        after: toRequest(after),
      },
      now,
    )
    return toRequest(after)
  })
}

/** A withdrawal as the payout desk sees it: the person, the holder-name flag and the provider's side. */
export async function toAdminWithdrawal(deps: ApiDeps, row: WithdrawalRow): Promise<DeskWithdrawal> {
  const [shown, user, card] = await Promise.all([
    toWithdrawal(deps, row),
    findUserById(deps.db, row.user_id),
    findBankCard(deps.db, row.bank_card_id),
  ])
  const awaitingApproval =
    row.status === 'pending' &&
    row.payout_provider !== null &&
    row.approved_at === null &&
    row.payout_sent_at === null &&
    row.payout_next_at === null
  return {
    ...shown,
    userId: row.user_id,
    email: user?.email ?? '',
    userName: user?.user_name ?? '',
    nameFlagged: card?.name_flagged === 1,
    payout: row.payout_provider
      ? {
          provider: row.payout_provider,
          state: row.payout_state ?? null,
          attempts: Number(row.payout_attempts),
          sentAt: row.payout_sent_at === null ? null : Number(row.payout_sent_at),
          approvedAt: row.approved_at === null ? null : Number(row.approved_at),
          awaitingApproval,
          unknownSince: row.payout_unknown_since == null ? null : Number(row.payout_unknown_since),
          needsPersonAt: row.payout_needs_person_at == null ? null : Number(row.payout_needs_person_at),
          problem: row.payout_problem ?? null,
          conflict: row.payout_conflict ?? null,
          providerFee: row.payout_fee == null ? null : Number(row.payout_fee),
          stuck:
            (row.status === 'pending' || row.status === 'processing') &&
            !awaitingApproval &&
            deps.now() - Number(row.created_at) > deps.config.payouts.stuckMs,
        }
      : null,
  }
}

export async function listWithdrawals(deps: ApiDeps, q: { pageNum: number; pageSize: number; status?: WithdrawalStatus }) {
  // Oldest first: the queue is worked in the order people asked.
  const { rows, total } = await pageWithdrawals(deps.db, { status: q.status, oldestFirst: true }, q.pageNum, q.pageSize)
  const list = await Promise.all(rows.map((r) => toAdminWithdrawal(deps, r)))
  return { list, total, pageNum: q.pageNum, pageSize: q.pageSize }
}

export async function moveWithdrawal(
  deps: ApiDeps,
  actor: string,
  body: { id: string; status: WithdrawalStatus; reference?: string; reason?: string },
) {
  const { row } = await updateWithdrawal(deps, actor, body)
  return toAdminWithdrawal(deps, row)
}

export async function findPerson(deps: ApiDeps, q: { email?: string; id?: string }) {
  const user = q.id ? await findUserById(deps.db, q.id) : await findUserByEmail(deps.db, q.email!)
  if (!user) throw refuse(Refusals.USER_NOT_FOUND)
  const { currency } = deps.config.wallet
  const [wallet, cards, recent] = await Promise.all([
    findWallet(deps.db, user.id),
    liveBankCards(deps.db, user.id),
    personRecent(deps, user.id),
  ])
  return {
    userId: user.id,
    email: user.email,
    userName: user.user_name,
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    currency,
    createdAt: Number(user.created_at),
    bankAccounts: cards.map((c) => ({
      bankName: findBank(currency, c.bank_code)?.name ?? `Bank ${c.bank_code}`,
      maskedNumber: maskAccountNumber(c.account_number),
      accountName: c.account_name,
      isDefault: Boolean(c.is_default),
      createdAt: Number(c.created_at),
    })),
    ...recent,
  }
}

/** A person's newest sessions, orders and withdrawals (20 of each) for the admin desk; no token leaves. */
async function personRecent(deps: ApiDeps, userId: string) {
  const now = deps.now()
  const [sessions, orders, withdrawals] = await Promise.all([
    deps.db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(20)
      .execute(),
    pageOrders(deps.db, { userId }, 1, 20),
    pageWithdrawals(deps.db, { userId }, 1, 20),
  ])
  return {
    sessions: sessions.map((s) => ({
      createdAt: Number(s.created_at),
      expiresAt: Number(s.expires_at),
      live: s.revoked_at === null && Number(s.expires_at) > now,
    })),
    orders: orders.rows.map((o) => ({
      id: o.id,
      orderNo: o.order_no,
      brandId: o.brand_id,
      status: o.status,
      payout: Number(o.settled_payout ?? o.proposed_payout ?? o.quoted_payout),
      createdAt: Number(o.created_at),
    })),
    withdrawals: withdrawals.rows.map((w) => ({ id: w.id, amount: Number(w.amount), status: w.status, createdAt: Number(w.created_at) })),
  }
}

export async function checkBooks(deps: ApiDeps) {
  const [mismatches, count] = await Promise.all([
    auditBooks(deps.db),
    deps.db
      .selectFrom('wallets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { checkedAt: deps.now(), wallets: Number(count.n), mismatches }
}

/** Bank accounts on several accounts, most accounts first: the operators' view of farmed sign-ups. */
export async function sharedBankAccounts(deps: ApiDeps, limit: number): Promise<SharedBankAccountsData> {
  const { currency } = deps.config.wallet
  return (await findSharedBankAccounts(deps.db, deps.config.wallet.pinPepper, limit)).map((s) => ({
    bankName: findBank(currency, s.bank_code)?.name ?? `Bank ${s.bank_code}`,
    maskedNumber: maskAccountNumber(s.account_number),
    rewardsEarnedBy: s.rewardOwner,
    accounts: s.accounts.map((a) => ({
      userId: a.user_id,
      email: a.email,
      signupAddress: a.signup_address,
      createdAt: Number(a.created_at),
      rewards: Number(a.rewards ?? 0),
    })),
  }))
}
