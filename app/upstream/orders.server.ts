import { type AppLoadContext, data } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { ordersApi as api, type SellBody } from '#contract/orders'
import { profileApi } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { requireToken } from '~/utils/auth.server'
import { sellingMessages as M } from '~/utils/selling-messages'
import { callApi } from './call-api.server'
import { flow, loaded } from './flow.server'

/** Orders (DESIGN §3 "Orders"), one flow per contract call. */
export const sellFlow = (request: Request, context: AppLoadContext, body: SellBody) =>
  flow(context, M.sellFailed, () => callApi(request, context, api.sell, body))

export const orderPageFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.page>) =>
  flow(context, M.ordersFailed, () => callApi(request, context, api.page, query))

export const orderDetailFlow = (request: Request, context: AppLoadContext, id: string) =>
  flow(context, M.orderFailed, () => callApi(request, context, api.detail, { id }))

/** The person's moves on their own order: cancel (pending), accept or decline (proposed). */
export const orderMoveFlow = (request: Request, context: AppLoadContext, move: 'cancel' | 'accept' | 'decline', id: string) =>
  flow(context, M.moveFailed, () => callApi(request, context, api[move], { id }))

/** What an order id in a URL may look like before it is worth asking the api. */
export const plausibleOrderId = (id: string) => /^[\w-]{1,64}$/.test(id)

/**
 * An order for a screen, or a 404: another person's, an unknown id and a malformed one are
 * answered alike (the malformed one never reaches the api).
 */
export async function loadOrder(request: Request, context: AppLoadContext, id: string) {
  const notFound = () => data({ message: M.orderNotFound }, { status: 404 })
  if (!plausibleOrderId(id)) throw notFound()
  const result = await orderDetailFlow(request, context, id)
  if (!result.success && (result.code === Refusals.ORDER_NOT_FOUND.code || result.code === 400)) throw notFound()
  return loaded(result)
}

/**
 * The time zone the api keeps time in (the wallet's, contract/wallet.ts), so an order's times read
 * the same as the wallet's. Only for showing times: if the wallet cannot say, the api's default.
 */
export async function orderTimeZone(request: Request, context: AppLoadContext): Promise<string> {
  // The page's own user index (the root asks the same; the request memo makes it one call).
  const index = await flow(context, '', () => callApi(request, context, profileApi.index, {}))
  return (index.success && index.data.wallet?.timeZone) || 'Africa/Lagos'
}

/**
 * The screen after a card is submitted: the order and the time zone of its times (the first
 * successful order's event is the collector's and the api's, not this page's). Its loader asks this module only:
 * each server module a route imports is an empty file of the browser build, fetched on a first
 * visit.
 */
export async function submittedOrderPage(request: Request, context: AppLoadContext, id: string) {
  await requireToken(request)
  const [order, timeZone] = await Promise.all([loadOrder(request, context, id), orderTimeZone(request, context)])
  return { order, timeZone }
}
