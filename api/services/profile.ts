import type { GiftCard, SetInfoBody, SetInfoData, UserIndexData, WalletSummary } from '#contract/profile'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { unauthorized } from '../lib/envelope'
import { liveBankCards } from '../models/bank-cards'
import { listBrands } from '../models/catalogue'
import { countUnread } from '../models/messages'
import { findPin } from '../models/pins'
import { toUserInfo, updateProfile } from '../models/users'
import { giftCardRates, toLogo } from './catalogue'
import { findWallet } from './ledger'

/** The signed-in person's own profile: what /v1/user/index shows and setInfo changes. */
export async function userIndex(deps: ApiDeps, user: User): Promise<UserIndexData> {
  const [giftCardList, unreadCount, wallet] = await Promise.all([
    featuredGiftCards(deps),
    countUnread(deps.db, user.id),
    walletSummary(deps, user),
  ])
  return { userInfo: toUserInfo(user), wallet, taskInfos: [], giftCardList, unreadCount }
}

async function walletSummary(deps: ApiDeps, user: User): Promise<WalletSummary> {
  const [wallet, pin, cards] = await Promise.all([findWallet(deps.db, user.id), findPin(deps.db, user.id), liveBankCards(deps.db, user.id)])
  return {
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    currency: deps.config.wallet.currency,
    hasPin: Boolean(pin),
    bankCardCount: cards.length,
  }
}

/** The featured brands (Home's cards), each with the board's rates for it; a brand with no rate in force is left out. */
async function featuredGiftCards(deps: ApiDeps): Promise<GiftCard[]> {
  const [brands, rates] = await Promise.all([listBrands(deps.db), giftCardRates(deps, {})])
  return brands
    .filter((b) => b.featured === 1)
    .map((b) => ({
      brandId: b.id,
      name: b.name,
      logo: toLogo(b),
      etaMinutes: b.eta_minutes,
      rates: rates.filter((r) => r.brandId === b.id),
    }))
    .filter((card) => card.rates.length > 0)
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
