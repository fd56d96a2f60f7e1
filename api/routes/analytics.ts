import { analyticsApi as api } from '#contract/analytics'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { storeEvent } from '../services/analytics'

/** /v1/analytics/event: stores one event (the web's collector comes with the account issue). */
export function analyticsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.event, ({ user, input }) => storeEvent(deps, user, input))
  return router
}
