import { reviewDeskApi as api } from '#contract/ops/review'
import { contractRouter } from '../../lib/route'
import type { SellingDeps } from '../../lib/selling-deps'
import * as catalogue from '../../services/catalogue'
import * as orders from '../../services/ops/review'
import * as signals from '../../services/ops/review-signals'

/** /admin/order/* and /admin/giftcard/*: the review queue and its moves, rates and ETAs. Audited. */
export function reviewDeskRoutes(deps: SellingDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.queue, ({ input }) => orders.adminQueue(deps, input))
  bind(api.detail, ({ actor, input }) => orders.adminDetail(deps, actor, input))
  bind(api.reveal, ({ actor, input }) => orders.revealCodes(deps, actor, input.id))
  bind(api.signals, ({ input }) => signals.orderSignals(deps, input.id))
  bind(api.claim, ({ actor, input }) => orders.claimOrder(deps, actor, input.id))
  bind(api.complete, ({ actor, input }) => orders.completeOrder(deps, actor, input))
  bind(api.propose, ({ actor, input }) => orders.proposeOrder(deps, actor, input))
  bind(api.reject, ({ actor, input }) => orders.rejectOrder(deps, actor, input))
  bind(api.setRate, ({ actor, input }) => catalogue.setRate(deps, actor, input))
  bind(api.pendingRateChanges, () => catalogue.pendingRateChanges(deps))
  bind(api.approveRateChange, ({ actor, staff, input }) => catalogue.approveRateChange(deps, { actor, staff }, input.id))
  bind(api.declineRateChange, ({ actor, input }) => catalogue.declineRateChange(deps, actor, input.id))
  bind(api.setEta, ({ actor, input }) => catalogue.setEta(deps, actor, input))
  bind(api.rateHistory, ({ input }) => catalogue.rateHistory(deps, input))
  return router
}
