import { autoWithdrawalApi } from '#contract/auto-withdrawal'
import { walletApi as api } from '#contract/wallet'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { setAutoWithdrawal } from '../services/auto-withdrawal'
import * as wallet from '../services/wallet'

/** /v1/wallet/info, the balance log and the auto-withdrawal switch. */
export function walletRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.info, ({ user }) => wallet.walletInfo(deps, user))
  bind(api.pageBalanceLog, ({ user, input }) => wallet.balanceLog(deps, user, input))
  bind(api.overview, ({ user, input }) => wallet.walletOverview(deps, user, input))
  bind(api.withdrawForm, ({ user }) => wallet.withdrawForm(deps, user))
  bind(autoWithdrawalApi.set, ({ user, input }) => setAutoWithdrawal(deps, user, input))
  return router
}
