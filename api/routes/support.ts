import { supportApi as api } from '#contract/support'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { supportInfo } from '../services/support'

/** /v1/support/info: the public settings the Help & Support screen quotes. */
export function supportRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.info, async () => supportInfo(deps))
  return router
}
