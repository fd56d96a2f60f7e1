import { randomInt } from 'node:crypto'
import { Refusals } from '#contract/refusals'
import type { WithdrawalStatus } from '#contract/withdrawals'
import { isDbUnavailable } from '../db/connect'
import type { WithdrawalRow } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { findBank } from '../lib/banks'
import { dayBounds } from '../lib/day'
import { refuse } from '../lib/envelope'
import { ProviderRefused, ProviderUnavailable, type Transfer, type TransferState } from '../lib/payouts/provider'
import { audit } from '../models/audit-log'
import { findBankCard } from '../models/bank-cards'
import {
  approvePayout,
  claimPayout,
  duePayouts,
  findByPayoutReference,
  markPayoutSent,
  paidBetween,
  releasePayout,
  setTransferFacts,
} from '../models/withdrawals'
import { toAdminWithdrawal } from './admin'
import { applyMove, lockWithdrawal } from './withdrawals'

/**
 * Automatic payouts (decision 018). The withdrawal row is the job: a worker claims a due row with
 * a conditional UPDATE only one worker wins (a lease that ends by itself if the worker dies),
 * writes `payout_sent_at` before its first transfer call, and whoever takes a row that may have a
 * transfer asks the provider by reference before sending again. The provider refuses a
 * reference it has seen, so a transfer is sent at most once however the calls fail; webhooks
 * and polls move the status forward only (the ledger keys make each money move happen once).
 */

const ACTOR = 'payouts'
/** Our words for a payout the bank or provider did not place; a provider's message is never shown. */
const FAILED_REASON = 'The bank did not accept this payout'
const REVERSED_REASON = 'The bank returned the payout'
const BATCH = 50
const CONCURRENCY = 8

/** Where each provider state may take a withdrawal, from each of ours: forward only. */
const PATHS: Record<TransferState, Partial<Record<WithdrawalStatus, WithdrawalStatus[]>>> = {
  pending: { pending: ['processing'] },
  success: { pending: ['processing', 'success'], processing: ['success'] },
  failed: { pending: ['failed'], processing: ['failed'] },
  // Reversed before we saw it paid: it was paid, then returned.
  reversed: { pending: ['processing', 'success', 'reversed'], processing: ['success', 'reversed'], success: ['reversed'] },
}

/** The next look at a transfer still on its way: the poll interval, doubling with each look (at most 64×). */
const nextLook = (deps: ApiDeps, attempts: number, now: number) =>
  now + deps.config.payouts.pollSeconds * 1000 * 2 ** Math.min(Math.max(attempts - 1, 0), 6)

/**
 * Moves a withdrawal as far as the provider's transfer says, in one write transaction. Only
 * forward moves happen; a transfer that is not this withdrawal's (amount or currency) moves
 * nothing and is left for the payout desk. Answers the row after.
 */
export async function settle(
  deps: ApiDeps,
  id: string,
  t: Transfer,
  how: { source: 'send' | 'poll' | 'webhook'; lease?: number },
): Promise<WithdrawalRow | undefined> {
  const now = deps.now()
  const moved: WithdrawalStatus[] = []
  const after = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    moved.length = 0
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
        now,
      )
      if (how.lease !== undefined) await releasePayout(trx, id, how.lease, null)
      return row
    }
    const facts = {
      ...(t.transferCode && { transfer_code: t.transferCode }),
      ...(t.sessionId && { bank_session_id: t.sessionId }),
      ...(t.providerStatus && { payout_state: t.providerStatus }),
    }
    const final = t.state !== 'pending'
    for (const to of PATHS[t.state][row.status as WithdrawalStatus] ?? []) {
      const last = to === t.state || (t.state === 'pending' && to === 'processing')
      const fields = {
        ...facts,
        ...(to === 'success' && { reference: t.sessionId ?? t.transferCode ?? row.payout_reference }),
        ...(to === 'failed' && { reason: FAILED_REASON }),
        ...(to === 'reversed' && { reason: REVERSED_REASON }),
        // A finished payout is nothing more for a worker.
        ...(final && last && { payout_next_at: null, payout_lease_until: null }),
      }
      const note =
        to === 'processing'
          ? `Sent to the bank${t.transferCode ? ` (${t.transferCode})` : ''}`
          : to === 'success'
            ? `Paid${t.sessionId ? `, session ${t.sessionId}` : ''}`
            : (fields.reason ?? null)
      const next = await applyMove(trx, row, to, fields, now, ACTOR, note)
      if (!next) break
      row = next
      moved.push(to)
    }
    // A code or session id learnt without a move (a later poll) is kept too.
    if (Object.keys(facts).length) await setTransferFacts(trx, id, facts)
    if (how.lease !== undefined) {
      const open = row.status === 'pending' || row.status === 'processing'
      await releasePayout(trx, id, how.lease, open ? nextLook(deps, Number(row.payout_attempts), now) : null)
    }
    return row
  })
  // Counted once committed (a retried transaction moves again from the start).
  for (const to of moved) if (to === 'success' || to === 'failed' || to === 'reversed') deps.metrics.payoutOutcome(to)
  return after
}

/** Fails a payout the provider could not place: the hold returns in full. */
async function failUnplaced(deps: ApiDeps, row: WithdrawalRow, lease: number) {
  const now = deps.now()
  const failed = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const current = await lockWithdrawal(trx, deps.dbKind, row.id)
    if (current && (current.status === 'pending' || current.status === 'processing')) {
      await applyMove(
        trx,
        current,
        'failed',
        { reason: FAILED_REASON, payout_next_at: null, payout_lease_until: null },
        now,
        ACTOR,
        FAILED_REASON,
      )
      return true
    }
    await releasePayout(trx, row.id, lease, null)
    return false
  })
  if (failed) deps.metrics.payoutOutcome('failed')
}

/** One claimed withdrawal: ask first if a transfer may exist, else send; settle on what is known. */
async function payOne(deps: ApiDeps, row: WithdrawalRow, lease: number): Promise<void> {
  const provider = deps.payouts
  const reference = row.payout_reference!
  const later = () => releasePayout(deps.db, row.id, lease, nextLook(deps, Number(row.payout_attempts), deps.now()))
  try {
    if (row.payout_sent_at !== null || row.status === 'processing') {
      const found = await provider.verifyTransfer(reference)
      if (found) {
        await settle(deps, row.id, found, { source: 'poll', lease })
        return
      }
    } else if (!(await markPayoutSent(deps.db, row.id, lease, deps.now()))) {
      return // an operator failed it, or our claim ran out: not ours to send
    }
    const card = await findBankCard(deps.db, row.bank_card_id)
    if (!card || !findBank(row.currency, card.bank_code)) {
      await failUnplaced(deps, row, lease)
      return
    }
    let sent: Transfer
    try {
      sent = await provider.sendTransfer({
        reference,
        amount: Number(row.amount) - Number(row.fee),
        currency: row.currency,
        bankCode: card.bank_code,
        accountNumber: card.account_number,
        accountName: card.account_name,
        reason: `${deps.config.brandName} withdrawal`,
      })
    } catch (err) {
      if (!(err instanceof ProviderRefused)) throw err
      // Refused: a reference it has seen (then it exists), or a transfer it cannot place.
      const found = await provider.verifyTransfer(reference)
      if (found) await settle(deps, row.id, found, { source: 'poll', lease })
      else await failUnplaced(deps, row, lease)
      return
    }
    await settle(deps, row.id, sent, { source: 'send', lease })
  } catch (err) {
    if (err instanceof ProviderUnavailable) {
      deps.metrics.payoutOutcome('provider_unavailable')
      deps.logger.info({ withdrawalId: row.id, problem: err.message }, 'payout: provider unavailable, will ask again')
      await later().catch(() => undefined)
      return
    }
    throw err
  }
}

/**
 * One pass of the worker: claims what is due (at most BATCH rows) and pays each. Tests call it
 * directly; the interval in startPayoutWorker calls it in the running api.
 */
export async function runPayoutsOnce(deps: ApiDeps, pass: PayoutPass = {}): Promise<{ claimed: number }> {
  if (deps.payouts.name === 'manual') return { claimed: 0 }
  const now = deps.now()
  const due = await duePayouts(deps.db, now, BATCH)
  let claimed = 0
  const queue = [...due]
  const worker = async () => {
    // A stopping process claims nothing more; what it holds it finishes (or hands back, stop()).
    for (let next = queue.shift(); next && !pass.stopping?.(); next = queue.shift()) {
      const lease = now + deps.config.payouts.leaseMs + randomInt(0, 1000)
      const row = await claimPayout(deps.db, next.id, now, lease)
      if (!row) continue
      claimed++
      pass.held?.set(row.id, lease)
      await payOne(deps, row, lease)
        .catch((err: unknown) => {
          if (isDbUnavailable(err)) deps.dbHealth.failed(err)
          else deps.logger.warn({ err, withdrawalId: row.id }, 'payout: a pass failed; the claim runs out and another pass asks again')
        })
        .finally(() => pass.held?.delete(row.id))
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return { claimed }
}

/** What a running pass is told and tells: whether to stop claiming, and the claims it holds (id → lease). */
type PayoutPass = { stopping?: () => boolean; held?: Map<string, number> }

/**
 * The worker inside the api process: a pass every `everyMs` (with jitter). stop() claims nothing
 * more and waits for the payouts in hand, at most `withinMs`; any still in hand then are handed
 * back (their lease released, due at once), so another instance takes them without waiting for
 * the lease to run out. A transfer already sent is found by reference there, never sent twice.
 */
export function startPayoutWorker(deps: ApiDeps, everyMs = 2_000): { stop(withinMs?: number): Promise<void> } {
  let running: Promise<unknown> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const held = new Map<string, number>()
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(tick, everyMs + randomInt(0, Math.max(1, Math.floor(everyMs / 2))))
    timer.unref()
  }
  const tick = () => {
    running = runPayoutsOnce(deps, { stopping: () => stopped, held })
      .catch((err: unknown) => {
        if (isDbUnavailable(err)) deps.dbHealth.failed(err)
        else deps.logger.warn({ err }, 'payout worker pass failed')
      })
      .finally(() => {
        running = undefined
        schedule()
      })
  }
  schedule()
  return {
    async stop(withinMs = 20_000) {
      stopped = true
      clearTimeout(timer)
      let bound: NodeJS.Timeout | undefined
      await Promise.race([running, new Promise((resolve) => (bound = setTimeout(resolve, withinMs)))])
      clearTimeout(bound)
      for (const [id, lease] of held) {
        await releasePayout(deps.db, id, lease, deps.now()).catch(() => undefined)
        deps.logger.info({ withdrawalId: id }, 'payout: handed back at stop')
      }
    },
  }
}

export type WebhookOutcome = { status: 200 | 401; changed: boolean }

/**
 * A provider's webhook, as raw bytes and its signature header. Not authentic → 401 and nothing
 * changes. Authentic → 200 whatever it says (so the provider stops retrying): a transfer event of
 * one of our references moves that withdrawal forward, if it can still move that way; a duplicate,
 * a late event or an unknown reference changes nothing.
 */
export async function receiveWebhook(deps: ApiDeps, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
  const event = deps.payouts.readWebhook(rawBody, signature)
  if (!event) return { status: 401, changed: false }
  const state = ({ 'transfer.success': 'success', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' } as const)[event.event]
  if (!state || !event.transfer) {
    deps.logger.info({ event: event.event }, 'payout webhook: not a transfer event we act on')
    return { status: 200, changed: false }
  }
  const row = await findByPayoutReference(deps.db, event.transfer.reference)
  if (!row) {
    deps.logger.info({ event: event.event }, 'payout webhook: unknown reference, ignored')
    return { status: 200, changed: false }
  }
  // The event's name decides the state, not the data's status word.
  const after = await settle(deps, row.id, { ...event.transfer, state }, { source: 'webhook' })
  return { status: 200, changed: !!after && after.status !== row.status }
}

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

export type ReconcileLine = { reference: string; ours: string | null; theirs: string | null; problem: string }

/**
 * Our automatic payouts sent in [from, to] against the provider's transfers created then: every
 * difference (missing on either side, another state, another amount).
 */
export async function reconcile(deps: ApiDeps, from: number, to: number): Promise<{ checked: number; differences: ReconcileLine[] }> {
  const [ours, theirs] = await Promise.all([paidBetween(deps.db, from, to), deps.payouts.listTransfers(from, to)])
  const byRef = new Map(theirs.map((t) => [t.reference, t]))
  const differences: ReconcileLine[] = []
  const expectState: Record<string, TransferState | undefined> = {
    success: 'success',
    failed: 'failed',
    reversed: 'reversed',
    processing: 'pending',
  }
  for (const w of ours) {
    const t = byRef.get(w.payout_reference!)
    byRef.delete(w.payout_reference!)
    if (!t) {
      if (w.status !== 'failed')
        differences.push({ reference: w.payout_reference!, ours: w.status, theirs: null, problem: 'no transfer at the provider' })
      continue
    }
    if (t.amount !== Number(w.amount) - Number(w.fee)) {
      differences.push({
        reference: w.payout_reference!,
        ours: w.status,
        theirs: t.providerStatus,
        problem: `amount ${t.amount} there, ${Number(w.amount) - Number(w.fee)} here`,
      })
    } else if (expectState[w.status] !== t.state) {
      differences.push({ reference: w.payout_reference!, ours: w.status, theirs: t.providerStatus, problem: 'another state' })
    }
  }
  for (const t of byRef.values())
    differences.push({ reference: t.reference, ours: null, theirs: t.providerStatus, problem: 'no withdrawal of ours' })
  return { checked: ours.length, differences }
}

/** `npm run ops -- reconcile --date D`: the day D in the wallet's time zone. */
export async function reconcileDay(deps: ApiDeps, date: string) {
  if (deps.payouts.name === 'manual') return { date, provider: 'manual', checked: 0, differences: [] }
  // Noon UTC of that date lies inside that calendar day in every time zone we pay out in.
  const { start, end } = dayBounds(Date.parse(`${date}T12:00:00Z`), deps.config.wallet.timeZone)
  try {
    return { date, provider: deps.payouts.name, ...(await reconcile(deps, start, end - 1)) }
  } catch (err) {
    if (err instanceof ProviderUnavailable || err instanceof ProviderRefused) throw refuse(Refusals.PAYOUT_PROVIDER_UNAVAILABLE)
    throw err
  }
}
