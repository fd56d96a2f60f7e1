/**
 * Automatic payouts (decisions 018 and 038), one folder of parts: the worker sends and asks,
 * settlement moves a withdrawal along the moves contract/withdrawals.ts states, the webhook reads
 * Paystack's events, reconciliation compares with Paystack's list, balance watches the float, and
 * the desk is what a person does about them.
 */
export { checkBalance } from './balance'
export { approveWithdrawal, finalizeOtp, payoutAttention, resolveConflict } from './desk'
export { reconcile, reconcileDay, reconcileRecent, runDueReconciliation, type ReconcileLine } from './reconciliation'
export { failUnplaced, settle } from './settlement'
export { receiveWebhook, type WebhookOutcome } from './webhook'
export { runPayoutsOnce, startPayoutWorker } from './worker'
