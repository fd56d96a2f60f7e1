import type { PageQuery } from '#contract/envelope'
import { ON_THEIR_WAY_MAX, type PayoutMode, type WalletInfo, type WalletOverview, type WithdrawForm } from '#contract/wallet'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { liveBankCards } from '../models/bank-cards'
import { openWithdrawals } from '../models/withdrawals'
import { autoWithdrawalState } from './auto-withdrawal'
import { toBankCard } from './bank-cards'
import { findWallet, pageBalanceLog } from './ledger'
import { payoutSpeed } from './payout-speed'
import { getPinState } from './pin'
import { AUTOMATIC_PROMISE, remainingToday, toWithdrawal } from './withdrawals'

/** What the Wallet and Withdraw screens show: balances, PIN state and today's limits. */
export async function walletInfo(deps: ApiDeps, user: User, bankCards = liveBankCards(deps.db, user.id)): Promise<WalletInfo> {
  const { wallet } = deps.config
  const now = deps.now()
  const [row, pin, today, cards] = await Promise.all([
    findWallet(deps.db, user.id),
    getPinState(deps, user.id),
    remainingToday(deps, deps.db, user.id, now),
    bankCards,
  ])
  return {
    balance: Number(row?.balance ?? 0),
    frozen: Number(row?.frozen ?? 0),
    currency: wallet.currency,
    hasPin: pin.hasPin,
    pin,
    limits: {
      min: wallet.withdrawMin,
      dailyMax: wallet.withdrawDailyMax,
      remainingToday: today.remaining,
      fee: wallet.withdrawFee,
      payoutHours: wallet.payoutHours,
      timeZone: wallet.timeZone,
      dayEndsAt: today.dayEndsAt,
    },
    bankCardCount: cards.length,
    payouts: payoutMode(deps),
  }
}

/** The Withdraw screen's one call: the wallet info and the bank accounts, each read once. */
export async function withdrawForm(deps: ApiDeps, user: User): Promise<WithdrawForm> {
  const bankCards = liveBankCards(deps.db, user.id)
  const [info, rows, speed] = await Promise.all([walletInfo(deps, user, bankCards), bankCards, payoutSpeed(deps)])
  return { info, bankCards: rows.map((row) => toBankCard(row, deps.config.wallet.currency)), payoutSpeed: speed }
}

/** How this installation pays withdrawals, for Withdraw's promise and Add Bank Card's name step. */
export function payoutMode(deps: ApiDeps): PayoutMode {
  const automatic = deps.payouts.name !== 'manual'
  return {
    mode: automatic ? 'automatic' : 'manual',
    autoPayoutMax: automatic ? deps.config.payouts.autoPayoutMax : 0,
    automaticMinutes: AUTOMATIC_PROMISE / 60_000,
    resolvesNames: automatic,
  }
}

export function balanceLog(deps: ApiDeps, user: User, page: PageQuery) {
  return pageBalanceLog(deps.db, user.id, page.pageNum, page.pageSize)
}

/** The Wallet screen's one call: balances, a page of activity, the withdrawals on their way. */
export async function walletOverview(deps: ApiDeps, user: User, page: PageQuery): Promise<WalletOverview> {
  const [info, log, open, autoWithdrawal] = await Promise.all([
    walletInfo(deps, user),
    balanceLog(deps, user, page),
    openWithdrawals(deps.db, user.id, ON_THEIR_WAY_MAX),
    autoWithdrawalState(deps, user.id),
  ])
  const onTheirWay = (await Promise.all(open.map((row) => toWithdrawal(deps, row)))).sort((a, b) => a.expectedBy - b.expectedBy)
  return { info, log, onTheirWay, autoWithdrawal }
}
