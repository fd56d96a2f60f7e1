import { OPEN_ORDERS_SHOWN, type SetInfoBody, type SetInfoData, type UserIndexData, type WalletSummary } from '#contract/profile'
import { preparedQuery } from '../db/fixed-query'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { unauthorized } from '../lib/envelope'
import { catalogueVersionOf } from '../models/catalogue'
import { type TaskFacts, taskFactCounts, toTaskFacts } from '../models/tasks'
import { toUserInfo, updateProfile } from '../models/users'
import { catalogueReading, featuredGiftCards } from './catalogue'
import { openOrders } from './orders'
import { taskClaims, taskInfos } from './tasks'
import { payoutMode } from './wallet'

/** The signed-in person's own profile: what /v1/user/index shows and setInfo changes. */
export async function userIndex(deps: ApiDeps, user: User): Promise<UserIndexData> {
  const summary = walletSummary(deps, user)
  // The catalogue's version rides in the wallet's statement: its reading is read again only when
  // the version or the clock says so (decision 069), then gives the featured cards and the open
  // orders' brand names.
  const kept = summary.then(({ catalogueVersion }) => catalogueReading(deps, catalogueVersion))
  const brands = kept.then((k) => k.reading).then((r) => r.brands)
  // Awaited only when there are open orders: a failure reaches the caller through the cards.
  brands.catch(() => {})
  const [giftCardList, { wallet, unreadCount, facts }, open, claims] = await Promise.all([
    kept.then((k) => featuredGiftCards(deps, k)),
    summary,
    openOrders(deps, user, OPEN_ORDERS_SHOWN, brands),
    taskClaims(deps, user),
  ])
  return { userInfo: toUserInfo(user), wallet, taskInfos: taskInfos(deps, facts, claims), giftCardList, unreadCount, openOrders: open }
}

const walletCounts = preparedQuery(1, (db, userId: string) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('wallets').select('balance').where('user_id', '=', userId).as('balance'),
    eb.selectFrom('wallets').select('frozen').where('user_id', '=', userId).as('frozen'),
    eb
      .selectFrom('bank_cards')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .as('bankCards'),
    // Counted from the unread ones' own index (migration 0015), as countUnread does.
    eb
      .selectFrom('notifications')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .as('unread'),
    // Every bank account ever added, deleted ones too, the PIN and completed orders: the tasks' progress.
    ...taskFactCounts(eb, userId),
    catalogueVersionOf(eb).as('catalogueVersion'),
  ]),
)

/**
 * The wallet at a glance, the unread count, the tasks' progress and the catalogue's version in one query: every page asks
 * for them, so they are one round trip, not eight.
 */
async function walletSummary(
  deps: ApiDeps,
  user: User,
): Promise<{ wallet: WalletSummary; unreadCount: number; facts: TaskFacts; catalogueVersion: number | string }> {
  const [row] = await walletCounts(deps.db, user.id)
  const facts = toTaskFacts(row)
  const wallet = {
    balance: Number(row.balance ?? 0),
    frozen: Number(row.frozen ?? 0),
    currency: deps.config.wallet.currency,
    hasPin: facts.hasPin,
    bankCardCount: Number(row.bankCards),
    timeZone: deps.config.wallet.timeZone,
    resolvesNames: payoutMode(deps).resolvesNames,
  }
  return { wallet, unreadCount: Number(row.unread), facts, catalogueVersion: row.catalogueVersion! }
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
