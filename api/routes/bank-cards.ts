import { bankCardsApi as api } from '#contract/bank-cards'
import type { ApiDeps } from '../deps'
import { banksFor } from '../lib/banks'
import { contractRouter } from '../lib/route'
import * as bankCards from '../services/bank-cards'

/** /v1/bank/list and /v1/bankCard/*: where withdrawals go. */
export function bankCardsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.banks, async () => banksFor(deps.config.wallet.currency))
  bind(api.list, ({ user }) => bankCards.listBankCards(deps, user))
  bind(api.add, ({ user, input }) => bankCards.addBankCard(deps, user, input))
  bind(api.resolve, ({ input }) => bankCards.resolveAccount(deps, input))
  bind(api.remove, ({ user, input }) => bankCards.deleteBankCard(deps, user, input))
  bind(api.setDefault, ({ user, input }) => bankCards.makeDefaultBankCard(deps, user, input.id))
  return router
}
