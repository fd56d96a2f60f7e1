import { withdrawalsApi as api } from '#contract/withdrawals'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as withdrawals from '../services/withdrawals'

/** /v1/withdraw/*: create (holds the amount), detail, page. */
export function withdrawalsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.create, ({ user, input }) => withdrawals.createWithdrawal(deps, user, input))
  bind(api.detail, ({ user, input }) => withdrawals.withdrawalDetail(deps, user, input.id))
  bind(api.page, ({ user, input }) => withdrawals.withdrawalPage(deps, user, input))
  return router
}
