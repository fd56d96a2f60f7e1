import { OPEN_ORDERS_SHOWN, type SetInfoBody, type SetInfoData, type UserIndexData, type WalletSummary } from '#contract/profile'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { unauthorized } from '../lib/envelope'
import { liveBankCards } from '../models/bank-cards'
import { countUnread } from '../models/notifications'
import { findPin } from '../models/pins'
import { toUserInfo, updateProfile } from '../models/users'
import { featuredGiftCards } from './catalogue'
import { findWallet } from './ledger'
import { openOrders } from './orders'
import { taskInfos } from './tasks'

/** The signed-in person's own profile: what /v1/user/index shows and setInfo changes. */
export async function userIndex(deps: ApiDeps, user: User): Promise<UserIndexData> {
  const [giftCardList, unreadCount, wallet, open, tasks] = await Promise.all([
    featuredGiftCards(deps),
    countUnread(deps.db, user.id),
    walletSummary(deps, user),
    openOrders(deps, user, OPEN_ORDERS_SHOWN),
    taskInfos(deps, user),
  ])
  return { userInfo: toUserInfo(user), wallet, taskInfos: tasks, giftCardList, unreadCount, openOrders: open }
}

async function walletSummary(deps: ApiDeps, user: User): Promise<WalletSummary> {
  const [wallet, pin, cards] = await Promise.all([findWallet(deps.db, user.id), findPin(deps.db, user.id), liveBankCards(deps.db, user.id)])
  return {
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    currency: deps.config.wallet.currency,
    hasPin: Boolean(pin),
    bankCardCount: cards.length,
    timeZone: deps.config.wallet.timeZone,
  }
}

export async function setInfo(deps: ApiDeps, user: User, body: SetInfoBody): Promise<SetInfoData> {
  const updated = await updateProfile(
    deps.db,
    user.id,
    {
      ...(body.userName !== undefined && { user_name: body.userName }),
      ...(body.headImg !== undefined && { head_img: body.headImg }),
    },
    deps.now(),
  )
  if (!updated) throw unauthorized() // the account went away mid-request
  return toUserInfo(updated)
}
