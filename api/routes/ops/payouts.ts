import { payoutDeskApi } from '#contract/ops/payouts'
import type { ApiDeps } from '../../deps'
import { contractRouter } from '../../lib/route'
import { revealAccount } from '../../services/ops/payouts'

/** Paying by hand: /admin/withdraw/reveal (payouts role, audited). */
export function payoutDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(payoutDeskApi.revealAccount, ({ actor, input }) => revealAccount(deps, actor, input.id))
  return router
}
