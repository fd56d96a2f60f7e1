import { pinApi as api } from '#contract/pin'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as pin from '../services/pin'

/** /v1/user/setPin and resetPin: the withdrawal PIN. */
export function pinRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.setPin, ({ user, input }) => pin.setPin(deps, user, input))
  bind(api.resetPin, ({ user, input }) => pin.resetPin(deps, user, input))
  return router
}
