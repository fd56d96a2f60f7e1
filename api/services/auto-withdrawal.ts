import type { AutoWithdrawal } from '#contract/auto-withdrawal'
import { formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../db/connect'
import type { BankCardRow, OrderRow, User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { findBank } from '../lib/banks'
import { ApiError, refuseSaying } from '../lib/envelope'
import { disableAutoWithdrawal, enableAutoWithdrawal, isAutoWithdrawing } from '../models/auto-withdrawals'
import { liveBankCards } from '../models/bank-cards'
import { addNotification } from '../models/notifications'
import { findPin } from '../models/pins'
import { findUserById } from '../models/users'
import { maskAccountNumber } from './bank-cards'
import { withPin } from './pin'
import { placeWithdrawal } from './withdrawals'

/**
 * Auto-withdrawal (decision 040): a person who opted in with their PIN has each order's credit sent
 * on to their default bank account, as a withdrawal of its own made by the one withdrawal service
 * (placeWithdrawal: the bank account locked, the daily maximum, the balance and the hold in one
 * transaction), keyed by the order so one order never makes two. What cannot be sent stays in the
 * wallet, and the notification says why.
 */

/** The default bank account, else the newest live one (liveBankCards puts the default first). */
const defaultCard = async (deps: ApiDeps, userId: string) => (await liveBankCards(deps.db, userId))[0]

const cardName = (deps: ApiDeps, card: BankCardRow) =>
  `${findBank(deps.config.wallet.currency, card.bank_code)?.name ?? `Bank ${card.bank_code}`} ${maskAccountNumber(card.account_number)}`

export async function autoWithdrawalState(deps: ApiDeps, userId: string): Promise<AutoWithdrawal> {
  const [enabled, card] = await Promise.all([isAutoWithdrawing(deps.db, userId), defaultCard(deps, userId)])
  return {
    enabled,
    maxAmount: deps.config.payouts.autoPayoutMax,
    bankCard: card
      ? {
          bankName: findBank(deps.config.wallet.currency, card.bank_code)?.name ?? `Bank ${card.bank_code}`,
          maskedNumber: maskAccountNumber(card.account_number),
        }
      : null,
  }
}

/** On with the PIN (checked here, never kept) and a bank account to send to; off at any time. */
export async function setAutoWithdrawal(deps: ApiDeps, user: User, body: { enabled: boolean; pin?: string }): Promise<AutoWithdrawal> {
  if (!body.enabled) {
    await disableAutoWithdrawal(deps.db, user.id)
    return autoWithdrawalState(deps, user.id)
  }
  await withPin(deps, user.id, body.pin ?? '', async () => {
    if (!(await defaultCard(deps, user.id))) {
      throw refuseSaying(Refusals.BANK_CARD_NOT_FOUND, 'Add a bank account first: automatic withdrawals go to your default account')
    }
    await enableAutoWithdrawal(deps.db, user.id, deps.now())
  })
  return autoWithdrawalState(deps, user.id)
}

/** Why this credit cannot be sent on, before any withdrawal is tried; undefined when it may be. */
async function reasonToKeep(deps: ApiDeps, userId: string, amount: number, now: number): Promise<string | undefined> {
  const { wallet, payouts } = deps.config
  const money = (n: number) => formatMoney(n, wallet.currency)
  if (amount > payouts.autoPayoutMax) return `automatic withdrawals send at most ${money(payouts.autoPayoutMax)} at a time`
  if (amount < wallet.withdrawMin) return `it is below the minimum withdrawal of ${money(wallet.withdrawMin)}`
  if (amount <= wallet.withdrawFee) return `it does not cover the withdrawal fee of ${money(wallet.withdrawFee)}`
  const pin = await findPin(deps.db, userId)
  if (!pin) return 'your withdrawal PIN is not set'
  if (pin.withdraw_blocked_until !== null && Number(pin.withdraw_blocked_until) > now)
    return 'withdrawals are paused after your PIN was reset'
  return undefined
}

/**
 * After an order's credit has committed: sends `amount` on when the person opted in. Never throws
 * (the order is complete whatever happens here); a crash before it leaves the money in the wallet.
 */
export async function sendCreditOn(deps: ApiDeps, order: Pick<OrderRow, 'id' | 'user_id' | 'order_no'>, amount: number): Promise<void> {
  try {
    if (amount <= 0 || !(await isAutoWithdrawing(deps.db, order.user_id))) return
    const now = deps.now()
    const { currency } = deps.config.wallet
    const keep = (why: string) =>
      addNotification(
        deps.db,
        {
          userId: order.user_id,
          kind: 'wallet',
          refId: order.id,
          title: 'Kept in your wallet',
          content: `${formatMoney(amount, currency)} from order ${order.order_no} was not sent to your bank automatically: ${why}. It is in your wallet; withdraw it when you like.`,
        },
        now,
      )
    const [user, card] = await Promise.all([findUserById(deps.db, order.user_id), defaultCard(deps, order.user_id)])
    if (!user) return
    if (!card) return keep('you have no bank account saved')
    const why = await reasonToKeep(deps, user.id, amount, now)
    if (why) return keep(why)
    try {
      await placeWithdrawal(deps, user, { bankCardId: card.id, amount, requestId: `auto-${order.id}` }, now, (money) => ({
        title: 'Sent to your bank automatically',
        content: `${money} from order ${order.order_no} is on its way to ${cardName(deps, card)} (the fee of ${formatMoney(deps.config.wallet.withdrawFee, currency)} taken). It is on hold in your wallet until it is paid.`,
      }))
    } catch (err) {
      // The same order again (another instance won the key, or the default account changed since): it was sent once.
      if (isUniqueViolation(err) || (err instanceof ApiError && err.code === Refusals.IDEMPOTENCY_KEY_REUSED.code)) return
      if (err instanceof ApiError) return keep(err.message.replace(/[.!]+$/, '').replace(/^./, (c) => c.toLowerCase()))
      throw err
    }
  } catch (err) {
    deps.logger.error({ err, orderId: order.id }, 'auto-withdrawal: not made; the credit stays in the wallet')
  }
}
