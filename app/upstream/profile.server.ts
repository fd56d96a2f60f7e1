import { profileApi as api, type SetInfoBody } from '#contract/profile'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback, sellingMessages } from '~/utils/messages'
import { flow } from './flow.server'

/** The signed-in person's profile (SPEC §7 /v1/user/setInfo; the root reads the index for every page: auth.server). */
export const updateProfileFlow = (request: Request, body: SetInfoBody) =>
  flow(fallback.updateProfile, () => callApi(request, api.setInfo, body))

/**
 * A signed-in person's Home: the featured cards, open orders and tasks that come with their user
 * index (SPEC §7 `giftCardList`) — the GET the root makes for every page, shared through the
 * request memo, so Home costs one api call.
 */
export const homeFlow = (request: Request) =>
  flow(sellingMessages.catalogueFailed, async () => {
    const index = await callApi(request, api.index, {})
    return { featured: index.giftCardList, openOrders: index.openOrders, tasks: index.taskInfos }
  })
