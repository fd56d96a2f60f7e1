import { autoWithdrawalApi } from '#contract/auto-withdrawal'
import { payoutDeskApi } from '#contract/ops/payouts'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { setAutoWithdrawal } from '../services/auto-withdrawal'
import { revealAccount } from '../services/payout-desk'

/** Paying by hand: /admin/withdraw/reveal (payouts role, audited); a person's auto-withdrawal switch. */
export function payoutDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(payoutDeskApi.revealAccount, ({ actor, input }) => revealAccount(deps, actor, input.id))
  bind(autoWithdrawalApi.set, ({ user, input }) => setAutoWithdrawal(deps, user, input))
  return router
}
