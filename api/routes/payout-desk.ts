import { payoutDeskApi } from '#contract/payout-desk'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { revealAccount } from '../services/payout-desk'

/** Paying by hand: /admin/withdraw/reveal (payouts role, audited). */
export function payoutDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(payoutDeskApi.revealAccount, ({ actor, input }) => revealAccount(deps, actor, input.id))
  return router
}
