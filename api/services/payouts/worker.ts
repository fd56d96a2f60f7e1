import { randomInt } from 'node:crypto'
import { isDbUnavailable } from '../../db/connect'
import type { WithdrawalRow } from '../../db/schema'
import type { ApiDeps } from '../../deps'
import { findBank } from '../../lib/banks'
import { ProviderRefused, ProviderUnavailable, type Transfer } from '../../lib/payouts/provider'
import { audit } from '../../models/audit-log'
import { findBankCard } from '../../models/bank-cards'
import { forgetRecipientCode } from '../../models/banks'
import { claimPayout, duePayouts, markPayoutSent, releasePayout } from '../../models/withdrawals'
import { needsNameRecheck, recheckName, recipientFor } from '../banks'
import { checkBalance, floatGate, lowBalance, waitingToSend, type FloatGate } from './balance'
import { ACTOR, INVALID_ACCOUNT_REASON, lookAfter, NAME_CHANGED_REASON } from './common'
import { runDueReconciliation } from './reconciliation'
import { failUnplaced, settle } from './settlement'

/**
 * The payout worker (decision 018, 038). The withdrawal row is the job: a worker claims a due row
 * with a conditional UPDATE only one worker wins (a lease that ends by itself if the worker
 * dies), writes `payout_sent_at` before its transfer call, and whoever takes a row that may have a
 * transfer asks the provider by reference before sending again. Only Paystack's "not found",
 * after a send known not to have reached it or after the grace period, means absent; every other
 * doubt is unknown: the hold stays, the worker asks again with back-off, and after the time limit
 * the payout goes before a person. Nothing unknown is ever refunded.
 */

const BATCH = 50
const CONCURRENCY = 8

/** Why the worker waits without knowing (for the desk); never a secret or a provider's message. */
const problemOf = (err: Error) => err.message.replace(/^paystack /, 'Paystack ')

/**
 * The transfer's fate is unknown: the hold stays, the worker asks again later (Retry-After
 * honoured), and after the time limit the payout goes before a person with what is known.
 */
async function unknown(deps: ApiDeps, row: WithdrawalRow, lease: number, problem: string, retryAfterMs: number | null = null) {
  const now = deps.now()
  const since = row.payout_unknown_since === null ? now : Number(row.payout_unknown_since)
  const limit = deps.config.payouts.unknownLimitMs
  const person = row.payout_needs_person_at === null && now - since >= limit
  await deps.db
    .updateTable('withdrawals')
    .set({
      payout_unknown_since: since,
      payout_problem: problem,
      ...(person && { payout_needs_person_at: now }),
      payout_lease_until: null,
      payout_next_at: lookAfter(deps, Number(row.payout_attempts), now, retryAfterMs),
    })
    .where('id', '=', row.id)
    .where('payout_lease_until', '=', lease)
    .execute()
  deps.logger.warn({ withdrawalId: row.id, problem }, 'payout: unknown, the hold stays and we ask again')
  if (person) {
    await audit(
      deps.db,
      {
        actor: ACTOR,
        action: 'withdrawal.payout_needs_person',
        targetType: 'withdrawal',
        targetId: row.id,
        before: null,
        after: { problem, unknownSince: since, sentAt: row.payout_sent_at, state: row.payout_state, attempts: row.payout_attempts },
      },
      now,
    )
    deps.metrics.payoutAlert('needs_person')
    deps.logger.warn({ withdrawalId: row.id, problem }, 'payout: unknown too long, on the payout desk for a person')
  }
}

/** This send is known not to have made a transfer: none exists, and the next pass may send again. */
const notSent = (deps: ApiDeps, row: WithdrawalRow, lease: number) =>
  deps.db
    .updateTable('withdrawals')
    .set({ payout_sent_at: null })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('payout_lease_until', '=', lease)
    .execute()

/** Waits for the float: "queued, sending shortly", asked again after the poll interval. */
async function waitForFloat(deps: ApiDeps, row: WithdrawalRow, lease: number) {
  const now = deps.now()
  await deps.db
    .updateTable('withdrawals')
    .set({
      payout_state: 'queued',
      payout_problem: 'Waiting for the Paystack balance to cover it',
      payout_lease_until: null,
      payout_next_at: now + deps.config.payouts.pollSeconds * 1000,
    })
    .where('id', '=', row.id)
    .where('payout_lease_until', '=', lease)
    .execute()
}

/** One claimed withdrawal: ask first if a transfer may exist, else send; settle on what is known. */
async function payOne(deps: ApiDeps, row: WithdrawalRow, lease: number, float: FloatGate): Promise<void> {
  const provider = deps.payouts
  const reference = row.payout_reference!
  const net = Number(row.amount) - Number(row.fee)
  let mayExist = row.payout_sent_at !== null || row.status === 'processing'
  try {
    if (mayExist) {
      const found = await provider.verifyTransfer(reference)
      if (found) {
        await settle(deps, row.id, found, { source: 'poll', lease })
        return
      }
      // "Not found" right after a send may be read-after-write lag: absent only after the grace period.
      const grace = deps.config.payouts.notFoundGraceMs
      const absent = row.status === 'pending' && deps.now() - Number(row.payout_sent_at) >= grace
      if (!absent) {
        const wait = Number(row.payout_sent_at ?? deps.now()) + grace - deps.now()
        await unknown(deps, row, lease, 'Paystack does not find the transfer yet; it may still appear', Math.max(0, wait))
        return
      }
    }
    const card = await findBankCard(deps.db, row.bank_card_id)
    if (!card || !findBank(row.currency, card.bank_code)) {
      await failUnplaced(deps, row, lease, INVALID_ACCOUNT_REASON)
      return
    }
    // Nothing is sent yet: an account the bank named long ago, or a large payout, is named again first.
    if (needsNameRecheck(deps, card, net)) {
      const named = await recheckName(deps, card)
      if (named === 'unknown') {
        await releasePayout(deps.db, row.id, lease, lookAfter(deps, Number(row.payout_attempts), deps.now(), null))
        return
      }
      if (named !== 'same') {
        await failUnplaced(deps, row, lease, named === 'gone' ? INVALID_ACCOUNT_REASON : NAME_CHANGED_REASON)
        return
      }
    }
    // The account's kept recipient (or one made and kept now); without one the transfer call makes it.
    const recipientCode = (await recipientFor(deps, card).catch(() => null)) ?? undefined
    if (!float.take(net)) {
      await waitForFloat(deps, row, lease)
      return
    }
    if (!(await markPayoutSent(deps.db, row.id, lease, deps.now()))) return // an operator failed it, or our claim ran out
    mayExist = true
    let sent: Transfer
    try {
      sent = await provider.sendTransfer({
        reference,
        amount: net,
        currency: row.currency,
        bankCode: card.bank_code,
        accountNumber: card.account_number,
        accountName: card.account_name,
        recipientCode,
        reason: `${deps.config.brandName} withdrawal`,
      })
    } catch (err) {
      if (err instanceof ProviderRefused && card.recipient_code && err.kind === 'invalid_account') {
        // A kept recipient Paystack no longer knows (another integration, deleted): forget it and
        // send again with a new one, rather than blame the person's account.
        await forgetRecipientCode(deps.db, card.id)
        await notSent(deps, row, lease)
        await releasePayout(deps.db, row.id, lease, deps.now())
        return
      }
      if (err instanceof ProviderRefused) return await refused(deps, row, lease, err, float)
      if (err instanceof ProviderUnavailable && !err.transferMayExist) {
        await notSent(deps, row, lease)
        mayExist = false
      }
      throw err
    }
    await settle(deps, row.id, sent, { source: 'send', lease })
  } catch (err) {
    if (err instanceof ProviderUnavailable) {
      deps.metrics.payoutOutcome('provider_unavailable')
      // Not sent at all: only "try again later". Maybe sent: unknown, the hold stays.
      if (!mayExist) {
        deps.logger.info({ withdrawalId: row.id, problem: err.message }, 'payout: provider unavailable, will ask again')
        await releasePayout(deps.db, row.id, lease, lookAfter(deps, Number(row.payout_attempts), deps.now(), err.retryAfterMs)).catch(
          () => undefined,
        )
      } else await unknown(deps, { ...row, payout_sent_at: row.payout_sent_at ?? deps.now() }, lease, problemOf(err), err.retryAfterMs)
      return
    }
    throw err
  }
}

/** Paystack refused the transfer: what its code says decides; a refusal we cannot read is unknown. */
async function refused(deps: ApiDeps, row: WithdrawalRow, lease: number, err: ProviderRefused, float: FloatGate) {
  if (err.kind === 'duplicate') {
    // The reference exists: ask for it; never refund.
    const found = await deps.payouts.verifyTransfer(row.payout_reference!)
    if (found) await settle(deps, row.id, found, { source: 'poll', lease })
    else await unknown(deps, row, lease, 'Paystack says the reference was used but does not find the transfer yet')
    return
  }
  if (err.kind === 'insufficient_balance') {
    float.empty()
    await notSent(deps, row, lease)
    const balance = await deps.payouts.balance(row.currency).catch(() => 0)
    await lowBalance(deps, balance, Math.max(await waitingToSend(deps), Number(row.amount) - Number(row.fee)))
    await waitForFloat(deps, row, lease)
    return
  }
  if (err.kind === 'invalid_account') {
    await failUnplaced(deps, row, lease, INVALID_ACCOUNT_REASON)
    return
  }
  if (!err.transferMayExist) await notSent(deps, row, lease)
  await unknown(deps, row, lease, `${problemOf(err)}: a refusal whose meaning is not known`)
}

/** What a running pass is told and tells: whether to stop claiming, and the claims it holds (id → lease). */
type PayoutPass = { stopping?: () => boolean; held?: Map<string, number> }

/**
 * One pass of the worker: asks the balance, claims what is due (at most BATCH rows) and pays
 * each. Tests call it directly; the interval in startPayoutWorker calls it in the running api.
 */
export async function runPayoutsOnce(deps: ApiDeps, pass: PayoutPass = {}): Promise<{ claimed: number }> {
  if (deps.payouts.name === 'manual') return { claimed: 0 }
  const now = deps.now()
  const due = await duePayouts(deps.db, now, BATCH)
  if (due.length === 0) return { claimed: 0 }
  const float = floatGate(await checkBalance(deps))
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
      await payOne(deps, row, lease, float)
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

/**
 * The worker inside the api process: a pass every `everyMs` (with jitter), the balance on its own
 * schedule, and the daily reconciliation. stop() claims nothing more and waits for the payouts in
 * hand, at most `withinMs`; any still in hand then are handed back (their lease released, due at
 * once), so another instance takes them without waiting for the lease to run out.
 */
export function startPayoutWorker(deps: ApiDeps, everyMs = 2_000): { stop(withinMs?: number): Promise<void> } {
  let running: Promise<unknown> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let balanceAt = 0
  const held = new Map<string, number>()
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(tick, everyMs + randomInt(0, Math.max(1, Math.floor(everyMs / 2))))
    timer.unref()
  }
  const tick = () => {
    const chores = async () => {
      await runPayoutsOnce(deps, { stopping: () => stopped, held })
      if (deps.now() - balanceAt >= deps.config.payouts.balanceEveryMs) {
        balanceAt = deps.now()
        await checkBalance(deps)
      }
      await runDueReconciliation(deps)
    }
    running = chores()
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
