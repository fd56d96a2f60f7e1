import { payoutDeskApi, payoutSpeedApi } from '#contract/payout-desk'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { payoutSpeed, revealAccount } from '../services/payout-desk'

/** Paying by hand (/admin/withdraw/reveal, payouts role, audited) and the payouts' speed for Withdraw. */
export function payoutDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(payoutDeskApi.revealAccount, ({ actor, input }) => revealAccount(deps, actor, input.id))
  bind(payoutSpeedApi.speed, () => payoutSpeed(deps))
  return router
}
