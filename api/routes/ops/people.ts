import { peopleDeskApi as api } from '#contract/ops/people'
import type { ApiDeps } from '../../deps'
import { contractRouter } from '../../lib/route'
import { dashboard, findPeople, userLedger } from '../../services/ops/people'

/** The console's dashboard (any staff role, each part to the role that may see it) and the people desk (admins). */
export function peopleDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.dashboard, ({ staff }) => dashboard(deps, staff))
  bind(api.userLedger, ({ input }) => userLedger(deps, input))
  bind(api.findPeople, ({ input }) => findPeople(deps, input))
  return router
}
