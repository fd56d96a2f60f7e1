import type { SharedBankAccountsData } from '#contract/admin'
import { formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import { BalanceLogType, type BalanceLogEntry } from '#contract/wallet'
import type { WithdrawalStatus } from '#contract/withdrawals'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { findBank } from '../lib/banks'
import { refuse } from '../lib/envelope'
import { audit } from '../models/audit-log'
import { addMessage } from '../models/messages'
import { sharedBankAccounts as findSharedBankAccounts } from '../models/reward-bank-accounts'
import { findUserByEmail, findUserById } from '../models/users'
import { pageWithdrawals } from '../models/withdrawals'
import { maskAccountNumber } from './bank-cards'
import { auditBooks, findWallet, InsufficientFunds, move, toBalanceLogEntry } from './ledger'
import { toWithdrawal, updateWithdrawal } from './withdrawals'

/** What operators do (DESIGN §3 /admin): adjust a balance, list and move withdrawals. Audited. */

export async function adjustBalance(
  deps: ApiDeps,
  actor: string,
  body: { userId: string; amount: number; reason: string; requestId: string },
): Promise<BalanceLogEntry & { type: 'adjustment' }> {
  const { currency } = deps.config.wallet
  const now = deps.now()
  const entry = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    if (!(await findUserById(trx, body.userId))) throw refuse(Refusals.USER_NOT_FOUND)
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
    await audit(trx, { actor, action: 'wallet.adjust', targetType: 'user', targetId: body.userId, before: null, after: result.entry }, now)
    await addMessage(
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
  })
  return toBalanceLogEntry(entry) as BalanceLogEntry & { type: 'adjustment' }
}

export async function listWithdrawals(deps: ApiDeps, q: { pageNum: number; pageSize: number; status?: WithdrawalStatus }) {
  // Oldest first: the queue is worked in the order people asked.
  const { rows, total } = await pageWithdrawals(deps.db, { status: q.status, oldestFirst: true }, q.pageNum, q.pageSize)
  const list = await Promise.all(
    rows.map(async (r) => ({
      ...(await toWithdrawal(deps, r)),
      userId: r.user_id,
      email: (await findUserById(deps.db, r.user_id))?.email ?? '',
    })),
  )
  return { list, total, pageNum: q.pageNum, pageSize: q.pageSize }
}

export async function moveWithdrawal(
  deps: ApiDeps,
  actor: string,
  body: { id: string; status: WithdrawalStatus; reference?: string; reason?: string },
) {
  const { row, email } = await updateWithdrawal(deps, actor, body)
  return { ...(await toWithdrawal(deps, row)), userId: row.user_id, email }
}

export async function findPerson(deps: ApiDeps, q: { email?: string; id?: string }) {
  const user = q.id ? await findUserById(deps.db, q.id) : await findUserByEmail(deps.db, q.email!)
  if (!user) throw refuse(Refusals.USER_NOT_FOUND)
  const wallet = await findWallet(deps.db, user.id)
  return {
    userId: user.id,
    email: user.email,
    userName: user.user_name,
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    currency: deps.config.wallet.currency,
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
