import { profileApi as api } from '#contract/profile'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as profile from '../services/profile'

/** /v1/user/index and setInfo: the signed-in person's own profile. */
export function profileRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.index, ({ user }) => profile.userIndex(deps, user))
  bind(api.setInfo, ({ user, input }) => profile.setInfo(deps, user, input))
  return router
}
