import { opsAnalyticsApi, opsMoneyApi as api, opsPayoutsApi } from '#contract/ops/money'
import type { ApiDeps } from '../../deps'
import { contractRouter } from '../../lib/route'
import { funnel } from '../../services/analytics'
import * as money from '../../services/ops/money'
import { approveWithdrawal, finalizeOtp, payoutAttention, reconcileDay, reconcileRecent, resolveConflict } from '../../services/payouts'

/** /admin/*: operators only (Bearer ADMIN_TOKEN; absent when unset). Every action is audited. */
export function opsMoneyRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.adjust, ({ actor, input }) => money.adjustBalance(deps, actor, input))
  bind(api.pendingAdjustments, () => money.pendingAdjustments(deps))
  bind(api.approveAdjustment, ({ actor, staff, input }) => money.approveAdjustment(deps, { actor, staff }, input.id))
  bind(api.declineAdjustment, ({ actor, input }) => money.declineAdjustment(deps, actor, input.id))
  bind(api.withdrawals, ({ input }) => money.listWithdrawals(deps, input))
  bind(api.updateWithdrawal, ({ actor, input }) => money.moveWithdrawal(deps, actor, input))
  bind(api.approveWithdrawal, ({ actor, input }) => approveWithdrawal(deps, actor, input.id))
  bind(api.user, ({ input }) => money.findPerson(deps, input))
  bind(api.books, () => money.checkBooks(deps))
  bind(api.sharedBankAccounts, ({ input }) => money.sharedBankAccounts(deps, input.limit))
  bind(opsPayoutsApi.reconcile, ({ input }) => reconcileDay(deps, input.date))
  bind(opsPayoutsApi.reconcileRecent, () => reconcileRecent(deps))
  bind(opsPayoutsApi.attention, () => payoutAttention(deps))
  bind(opsPayoutsApi.finalizeOtp, ({ actor, input }) => finalizeOtp(deps, actor, input.id, input.otp))
  bind(opsPayoutsApi.resolveConflict, ({ actor, input }) => resolveConflict(deps, actor, input.id, input.note))
  bind(opsAnalyticsApi.funnel, ({ input }) => funnel(deps, input))
  return router
}
