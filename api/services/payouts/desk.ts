import type { DeskWithdrawal } from '#contract/ops/money'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../../deps'
import { refuse } from '../../lib/envelope'
import { ProviderRefused, ProviderUnavailable } from '../../lib/payouts/provider'
import { audit } from '../../models/audit-log'
import { approvePayout } from '../../models/withdrawals'
import { toAdminWithdrawal } from '../ops/money'
import { lockWithdrawal } from '../withdrawals'
import { settle } from './settlement'

/**
 * The payout desk's side of automatic payouts: approve one above the line, enter a transfer's OTP,
 * resolve a conflict (audited), and what needs a person: the banners and the payouts stuck,
 * unknown too long, in conflict or waiting for an OTP.
 */

/** An operator approves an automatic payout above AUTO_PAYOUT_MAX. */
export async function approveWithdrawal(deps: ApiDeps, actor: string, id: string) {
  const now = deps.now()
  const before = await lockWithdrawal(deps.db, deps.dbKind, id)
  if (!before) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  if (!(await approvePayout(deps.db, id, now))) throw refuse(Refusals.PAYOUT_NOT_AWAITING_APPROVAL)
  const row = (await lockWithdrawal(deps.db, deps.dbKind, id))!
  await audit(deps.db, { actor, action: 'withdrawal.approve', targetType: 'withdrawal', targetId: id, before, after: row }, now)
  return toAdminWithdrawal(deps, row)
}

/** The business's transfer OTP, entered on the desk: Paystack's finalize_transfer, then settled. The OTP is never stored or logged. */
export async function finalizeOtp(deps: ApiDeps, actor: string, id: string, otp: string) {
  const row = await lockWithdrawal(deps.db, deps.dbKind, id)
  if (!row) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  if (
    deps.payouts.name === 'manual' ||
    row.payout_state !== 'otp' ||
    !row.transfer_code ||
    (row.status !== 'pending' && row.status !== 'processing')
  )
    throw refuse(Refusals.PAYOUT_NOT_AWAITING_OTP)
  let t
  try {
    t = await deps.payouts.finalizeTransfer(row.transfer_code, otp)
  } catch (err) {
    if (err instanceof ProviderRefused) throw refuse(Refusals.PAYOUT_OTP_REFUSED)
    if (err instanceof ProviderUnavailable) throw refuse(Refusals.PAYOUT_PROVIDER_UNAVAILABLE)
    throw err
  }
  await audit(
    deps.db,
    {
      actor,
      action: 'withdrawal.payout_otp_entered',
      targetType: 'withdrawal',
      targetId: id,
      before: null,
      after: { transferCode: row.transfer_code, state: t.providerStatus },
    },
    deps.now(),
  )
  const after = await settle(deps, id, t, { source: 'desk' })
  return toAdminWithdrawal(deps, after ?? row)
}

/** A person looked at a conflict and settled it outside (an adjustment, the bank): it leaves the desk, audited with their note. */
export async function resolveConflict(deps: ApiDeps, actor: string, id: string, note: string) {
  const now = deps.now()
  const before = await lockWithdrawal(deps.db, deps.dbKind, id)
  if (!before) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  const r = await deps.db
    .updateTable('withdrawals')
    .set({ payout_conflict: null, payout_conflict_at: null })
    .where('id', '=', id)
    .where('payout_conflict', 'is not', null)
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) !== 1) throw refuse(Refusals.PAYOUT_NO_CONFLICT)
  const after = (await lockWithdrawal(deps.db, deps.dbKind, id))!
  await audit(
    deps.db,
    { actor, action: 'withdrawal.payout_conflict_resolved', targetType: 'withdrawal', targetId: id, before, after: { ...after, note } },
    now,
  )
  return toAdminWithdrawal(deps, after)
}

const LIST = 50

/** What needs a person on the payout desk, each list oldest first (at most 50 each). */
export async function payoutAttention(deps: ApiDeps) {
  const now = deps.now()
  const base = () =>
    deps.db.selectFrom('withdrawals').selectAll().where('payout_provider', 'is not', null).orderBy('created_at').limit(LIST)
  const open = ['pending', 'processing']
  const [alerts, conflicts, needsPerson, otp, stuck] = await Promise.all([
    deps.db.selectFrom('payout_alerts').selectAll().orderBy('raised_at').execute(),
    base().where('payout_conflict', 'is not', null).execute(),
    base().where('payout_needs_person_at', 'is not', null).where('status', 'in', open).execute(),
    base().where('payout_state', '=', 'otp').where('status', 'in', open).execute(),
    base()
      .where('status', 'in', open)
      .where('created_at', '<', now - deps.config.payouts.stuckMs)
      // Waiting for an operator's approval is the desk's own queue, not stuck.
      .where((eb) => eb.or([eb('payout_next_at', 'is not', null), eb('payout_sent_at', 'is not', null)]))
      .execute(),
  ])
  const shown = (rows: typeof conflicts) => Promise.all(rows.map((r) => toAdminWithdrawal(deps, r)))
  const out: {
    alerts: { kind: string; message: string; amount: number | null; raisedAt: number }[]
    conflicts: DeskWithdrawal[]
    needsPerson: DeskWithdrawal[]
    otp: DeskWithdrawal[]
    stuck: DeskWithdrawal[]
  } = {
    alerts: alerts.map((a) => ({
      kind: a.kind,
      message: a.message,
      amount: a.amount === null ? null : Number(a.amount),
      raisedAt: Number(a.raised_at),
    })),
    conflicts: await shown(conflicts),
    needsPerson: await shown(needsPerson),
    otp: await shown(otp),
    stuck: await shown(stuck),
  }
  return out
}
