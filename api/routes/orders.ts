import { ordersApi as api } from '#contract/orders'
import { contractRouter } from '../lib/route'
import type { SellingDeps } from '../lib/selling-deps'
import * as orders from '../services/orders'

/** /v1/order/*: sell, the person's orders, and their moves (cancel, accept, decline). */
export function ordersRoutes(deps: SellingDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.sell, ({ user, input }) => orders.sell(deps, user, input))
  bind(api.page, ({ user, input }) => orders.orderPage(deps, user, input))
  bind(api.detail, ({ user, input }) => orders.orderDetail(deps, user, input.id))
  bind(api.cancel, ({ user, input }) => orders.cancelOrder(deps, user, input.id))
  bind(api.accept, ({ user, input }) => orders.acceptOrder(deps, user, input.id))
  bind(api.decline, ({ user, input }) => orders.declineOrder(deps, user, input.id))
  return router
}
