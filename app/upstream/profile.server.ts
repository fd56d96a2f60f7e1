import type { AppLoadContext } from '@remix-run/node'
import { profileApi as api, type SetInfoBody, type UserInfo, type WalletSummary } from '#contract/profile'
import type { TaskInfo } from '#contract/tasks'
import { getToken } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { sellingMessages } from '~/utils/selling-messages'
import { emptySession, type AppSession } from '~/utils/session.server'
import { callApi } from './call-api.server'
import { featuredCardsFlow } from './catalogue.server'
import { flow } from './flow.server'

/** The signed-in person's profile (SPEC §7 /v1/user/setInfo; the root reads the index for every page: loadSessionUser). */
export const updateProfileFlow = (request: Request, context: AppLoadContext, body: SetInfoBody) =>
  flow(context, fallback.updateProfile, () => callApi(request, context, api.setInfo, body))

/**
 * A signed-in person's Home: the featured cards, open orders and tasks that come with their user
 * index (SPEC §7 `giftCardList`) — the GET the root makes for every page, shared through the
 * request memo, so Home costs one api call.
 */
export const homeFlow = (request: Request, context: AppLoadContext) =>
  flow(context, sellingMessages.catalogueFailed, async () => {
    const index = await callApi(request, context, api.index, {})
    return { featured: index.giftCardList, openOrders: index.openOrders, tasks: index.taskInfos }
  })

/**
 * Home's data: a signed-in person's (one call), a visitor's featured cards. Home's loader asks this
 * module only: each server module a route imports is an empty file of the browser build, fetched
 * on a first visit (issue 19).
 */
export async function homePage(request: Request, context: AppLoadContext) {
  if (await getToken(request)) {
    const home = await homeFlow(request, context)
    return home.success ? home.data : { featured: null, openOrders: null, tasks: [] as TaskInfo[] }
  }
  const featured = await featuredCardsFlow(request, context)
  return { featured: featured.success ? featured.data : null, openOrders: null, tasks: [] as TaskInfo[] }
}

/** The signed-in person as every screen sees them: the contract's userInfo words. */
export type SessionUser = {
  userId: string
  email: string
  userName: string
  headImg: string | null
  /** The linked Google account's e-mail; null when none is linked. */
  googleEmail: string | null
  unreadCount: number
  /** The wallet at a glance (Home's balance card, Account's rows); null if the api left it out. */
  wallet: WalletSummary | null
}

/**
 * The signed-in user, fetched from /v1/user/index (SPEC §4: at start, with a token, the user
 * info is fetched). No userInfo → logged out. The cached login_* fields are refreshed in the
 * given session; an e-mail the server omits keeps the one held before (SPEC §3).
 * `dirty` says the session changed and must be committed by the caller (once per response:
 * two Set-Cookie headers for one cookie would race).
 */
export async function loadSessionUser(
  request: Request,
  context: AppLoadContext,
  session: AppSession,
): Promise<{ user: SessionUser | null; session: AppSession; dirty: boolean }> {
  if (!session.get('token')) return { user: null, session, dirty: false }
  const index = await callApi(request, context, api.index, {})
  const info: UserInfo | null = index.userInfo
  if (!info) return { user: null, session: await emptySession(), dirty: true }
  const email = info.email || session.get('login_email') || ''
  const user: SessionUser = {
    userId: info.userId,
    email,
    userName: info.userName,
    headImg: info.headImg,
    googleEmail: info.googleEmail ?? null,
    unreadCount: index.unreadCount,
    wallet: index.wallet,
  }
  const dirty =
    session.get('login_username') !== user.userName || session.get('login_email') !== user.email || session.get('login_id') !== user.userId
  if (dirty) {
    session.set('login_username', user.userName)
    session.set('login_email', user.email)
    session.set('login_id', user.userId)
  }
  return { user, session, dirty }
}
