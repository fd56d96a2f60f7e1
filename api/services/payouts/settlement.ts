import { movesTo, type WithdrawalStatus } from '#contract/withdrawals'
import type { WithdrawalRow } from '../../db/schema'
import { writeTransaction } from '../../db/transaction'
import type { ApiDeps } from '../../deps'
import type { Transfer } from '../../lib/payouts/provider'
import { audit } from '../../models/audit-log'
import { releasePayout, setTransferFacts } from '../../models/withdrawals'
import { applyMove, lockWithdrawal } from '../withdrawals'
import { ABANDONED_REASON, ACTOR, FAILED_REASON, NOT_RECEIVED_REASON, REVERSED_REASON, TARGET, nextLook } from './common'

/**
 * Settlement: a withdrawal moves as far as the provider's transfer says, forward only, along the
 * moves contract/withdrawals.ts states. Two answers that contradict each other (paid after the
 * money was returned, failed after paid) move nothing: they are a conflict a person resolves.
 */

export type SettleHow = { source: 'send' | 'poll' | 'webhook' | 'desk'; lease?: number }

/** Whether the person was ever paid: a success in the timeline. */
const wasPaid = async (deps: ApiDeps, id: string) =>
  !!(await deps.db
    .selectFrom('withdrawal_events')
    .select('id')
    .where('withdrawal_id', '=', id)
    .where('status', '=', 'success')
    .executeTakeFirst())

/** The contradiction between what we did and what the provider says now, if any. */
async function contradiction(deps: ApiDeps, row: WithdrawalRow, t: Transfer): Promise<string | null> {
  if (t.state === 'success' && row.status === 'failed') return 'Paystack reports the payout paid after the money was returned to the wallet'
  if (t.state === 'success' && row.status === 'reversed' && !(await wasPaid(deps, row.id)))
    return 'Paystack reports the payout paid after the money was returned to the wallet'
  if (t.state === 'failed' && row.status === 'success') return 'Paystack reports the payout failed after it was marked paid'
  return null
}

/**
 * Moves a withdrawal as far as the provider's transfer says, in one write transaction. A transfer
 * that is not this withdrawal's (amount or currency) moves nothing and is left for the desk. A
 * contradiction is checked with the provider first (a late event is only late) and otherwise
 * recorded as a conflict. Answers the row after.
 */
export async function settle(deps: ApiDeps, id: string, t: Transfer, how: SettleHow): Promise<WithdrawalRow | undefined> {
  const seen = await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  if (seen && how.source !== 'poll' && (await contradiction(deps, seen, t))) {
    // An event may be old news: the provider's state now decides whether it is a conflict.
    const now = await deps.payouts.verifyTransfer(seen.payout_reference!).catch(() => undefined)
    if (now && !(await contradiction(deps, seen, now))) {
      deps.logger.info(
        { withdrawalId: id, source: how.source, state: t.state },
        'payout: a late event the provider has since overtaken; nothing moved',
      )
      return settle(deps, id, now, { ...how, source: 'poll' })
    }
  }
  const at = deps.now()
  const moved: WithdrawalStatus[] = []
  let conflict: string | null = null
  const after = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    moved.length = 0
    conflict = null
    let row = await lockWithdrawal(trx, deps.dbKind, id)
    if (!row) return undefined
    const expected = Number(row.amount) - Number(row.fee)
    if (t.amount !== expected || t.currency !== row.currency) {
      deps.logger.warn(
        { withdrawalId: id, source: how.source, amount: t.amount, expected, currency: t.currency },
        'payout: the provider reports a transfer that does not match the withdrawal; nothing moved, left for the payout desk',
      )
      await audit(
        trx,
        { actor: ACTOR, action: 'withdrawal.payout_mismatch', targetType: 'withdrawal', targetId: id, before: row, after: t },
        at,
      )
      if (how.lease !== undefined) await releasePayout(trx, id, how.lease, null)
      return row
    }
    const facts = {
      ...(t.transferCode && { transfer_code: t.transferCode }),
      ...(t.sessionId && { bank_session_id: t.sessionId }),
      ...(t.providerStatus && { payout_state: t.providerStatus }),
      ...(typeof t.fee === 'number' && { payout_fee: t.fee }),
      // Known again: nothing for a person unless a conflict says so.
      payout_unknown_since: null,
      payout_needs_person_at: null,
      payout_problem:
        t.providerStatus === 'otp' ? 'Paystack waits for the transfer OTP: turn transfer OTP off in Paystack, or enter the OTP here' : null,
    }
    const found = await contradiction(deps, row, t)
    if (found) {
      conflict = found
      if (row.payout_conflict === null) {
        await trx.updateTable('withdrawals').set({ payout_conflict: found, payout_conflict_at: at }).where('id', '=', id).execute()
        await audit(
          trx,
          {
            actor: ACTOR,
            action: 'withdrawal.payout_conflict',
            targetType: 'withdrawal',
            targetId: id,
            before: row,
            after: { ...t, problem: found },
          },
          at,
        )
      } else conflict = null
      if (how.lease !== undefined) await releasePayout(trx, id, how.lease, null)
      return row
    }
    const final = t.state !== 'pending'
    const target = TARGET[t.state]
    const heldBefore = row.status !== 'success'
    for (const to of row.status === target ? [] : movesTo(row.status as WithdrawalStatus, target)) {
      const last = to === target
      const fields = {
        ...(to === 'success' && { reference: t.sessionId ?? t.transferCode ?? row.payout_reference }),
        ...(to === 'failed' && { reason: t.providerStatus === 'abandoned' ? ABANDONED_REASON : FAILED_REASON }),
        ...(to === 'reversed' && { reason: heldBefore ? NOT_RECEIVED_REASON : REVERSED_REASON }),
        // A finished payout is nothing more for a worker.
        ...(final && last && { payout_next_at: null, payout_lease_until: null }),
      }
      const note =
        to === 'processing'
          ? `Sent to the bank${t.transferCode ? ` (${t.transferCode})` : ''}`
          : to === 'success'
            ? `Paid${t.sessionId ? `, session ${t.sessionId}` : ''}`
            : (fields.reason ?? null)
      const next = await applyMove(trx, row, to, fields, at, ACTOR, note)
      if (!next) break
      row = next
      moved.push(to)
    }
    const otpNow = t.providerStatus === 'otp' && row.payout_state !== 'otp'
    await setTransferFacts(trx, id, facts)
    if (otpNow)
      await audit(
        trx,
        { actor: ACTOR, action: 'withdrawal.payout_otp', targetType: 'withdrawal', targetId: id, before: null, after: t },
        at,
      )
    if (how.lease !== undefined) {
      const open = row.status === 'pending' || row.status === 'processing'
      await releasePayout(trx, id, how.lease, open ? nextLook(deps, Number(row.payout_attempts), at) : null)
    }
    return { ...row, ...facts, otpNow } as WithdrawalRow & { otpNow?: boolean }
  })
  // Counted and said once committed (a retried transaction moves again from the start).
  for (const to of moved) if (to === 'success' || to === 'failed' || to === 'reversed') deps.metrics.payoutOutcome(to)
  if (conflict) {
    deps.metrics.payoutAlert('conflict')
    deps.logger.error(
      { withdrawalId: id, source: how.source, state: t.state, problem: conflict },
      'payout: conflict, a person must resolve it',
    )
  }
  if (after && (after as { otpNow?: boolean }).otpNow) {
    deps.metrics.payoutAlert('otp')
    deps.logger.warn({ withdrawalId: id }, 'payout: Paystack waits for the transfer OTP; turn it off or enter it on the payout desk')
  }
  if (after) delete (after as { otpNow?: boolean }).otpNow
  return after
}

/** Fails a payout the provider is known not to have placed: the hold returns in full. */
export async function failUnplaced(deps: ApiDeps, row: WithdrawalRow, lease: number, reason = FAILED_REASON) {
  const now = deps.now()
  const failed = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const current = await lockWithdrawal(trx, deps.dbKind, row.id)
    if (current && (current.status === 'pending' || current.status === 'processing')) {
      await applyMove(trx, current, 'failed', { reason, payout_next_at: null, payout_lease_until: null }, now, ACTOR, reason)
      return true
    }
    await releasePayout(trx, row.id, lease, null)
    return false
  })
  if (failed) deps.metrics.payoutOutcome('failed')
}
