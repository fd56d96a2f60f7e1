import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../../deps'
import { dayBounds } from '../../lib/day'
import { refuse } from '../../lib/envelope'
import { ProviderRefused, ProviderUnavailable, type TransferState, type UnreadableRow } from '../../lib/payouts/provider'
import { paidBetween } from '../../models/withdrawals'
import { clearAlert, raiseAlert } from './balance'

/**
 * Reconciliation (decision 038): our automatic payouts against Paystack's transfers (every state,
 * paged), daily over the last 7 days by itself and on demand. A row Paystack sends that we cannot
 * read is reported, never fatal; differences raise the desk's banner, a metric and a log, each
 * listed with what to do. The fee Paystack charged is recorded on each withdrawal it matches.
 */

export type ReconcileLine = { reference: string; ours: string | null; theirs: string | null; problem: string; action: string }
export type ReconcileReport = { checked: number; differences: ReconcileLine[]; unreadable: UnreadableRow[] }

export const RECONCILE_ALERT = 'reconcile'
const DAY = 86_400_000
/** The days the daily run covers. */
export const RECONCILE_DAYS = 7

const EXPECT: Record<string, TransferState | undefined> = {
  success: 'success',
  failed: 'failed',
  reversed: 'reversed',
  processing: 'pending',
  pending: 'pending',
}

/** What a person does about each kind of difference. */
const ACTION = {
  missingThere: 'Nothing was sent: the payout desk shows it; if it is failed, nothing to do, else check it in the Paystack dashboard',
  missingHere: 'A transfer we did not make under this reference: check the Paystack dashboard and the audit log at once',
  amount: 'Paystack paid another amount: compare the transfer with the withdrawal and adjust the wallet through an approved adjustment',
  state: 'The states differ: the worker asks Paystack again; if it stays, settle it on the payout desk',
}

export async function reconcile(deps: ApiDeps, from: number, to: number): Promise<ReconcileReport> {
  const [ours, theirs] = await Promise.all([paidBetween(deps.db, from, to), deps.payouts.listTransfers(from, to)])
  const byRef = new Map(theirs.transfers.map((t) => [t.reference, t]))
  const differences: ReconcileLine[] = []
  for (const w of ours) {
    const ref = w.payout_reference!
    const t = byRef.get(ref)
    byRef.delete(ref)
    if (!t) {
      if (w.status !== 'failed')
        differences.push({
          reference: ref,
          ours: w.status,
          theirs: null,
          problem: 'no transfer at the provider',
          action: ACTION.missingThere,
        })
      continue
    }
    if (typeof t.fee === 'number' && Number(w.payout_fee ?? -1) !== t.fee)
      await deps.db.updateTable('withdrawals').set({ payout_fee: t.fee }).where('id', '=', w.id).execute()
    const net = Number(w.amount) - Number(w.fee)
    if (t.amount !== net) {
      differences.push({
        reference: ref,
        ours: w.status,
        theirs: t.providerStatus,
        problem: `amount ${t.amount} there, ${net} here`,
        action: ACTION.amount,
      })
    } else if (EXPECT[w.status] !== t.state) {
      differences.push({ reference: ref, ours: w.status, theirs: t.providerStatus, problem: 'another state', action: ACTION.state })
    }
  }
  for (const t of byRef.values())
    differences.push({
      reference: t.reference,
      ours: null,
      theirs: t.providerStatus,
      problem: 'no withdrawal of ours',
      action: ACTION.missingHere,
    })
  for (const u of theirs.unreadable)
    deps.logger.warn({ page: u.page, status: u.status, problem: u.problem }, 'reconcile: a transfer row we cannot read')
  return { checked: ours.length, differences, unreadable: theirs.unreadable }
}

/** Reconciles [from, to] and raises or clears the desk's banner. */
async function reconcileAndAlert(deps: ApiDeps, from: number, to: number): Promise<ReconcileReport> {
  const report = await reconcile(deps, from, to)
  const n = report.differences.length + report.unreadable.length
  if (n > 0) {
    await raiseAlert(
      deps,
      RECONCILE_ALERT,
      `Reconciliation found ${report.differences.length} ${report.differences.length === 1 ? 'difference' : 'differences'}${report.unreadable.length ? ` and ${report.unreadable.length} unreadable ${report.unreadable.length === 1 ? 'row' : 'rows'}` : ''} with Paystack: see Reconcile`,
      null,
    )
    deps.logger.error(
      { differences: report.differences.length, unreadable: report.unreadable.length },
      'reconcile: differences with the provider',
    )
  } else await clearAlert(deps, RECONCILE_ALERT)
  return report
}

const lastRun = new WeakMap<ApiDeps, number>()

/** The daily run over the last 7 days (once a day per api instance; the worker's loop calls it). */
export async function runDueReconciliation(deps: ApiDeps): Promise<void> {
  if (deps.payouts.name === 'manual') return
  const now = deps.now()
  if (now - (lastRun.get(deps) ?? 0) < DAY) return
  lastRun.set(deps, now)
  try {
    await reconcileAndAlert(deps, now - RECONCILE_DAYS * DAY, now)
  } catch (err) {
    deps.logger.warn({ problem: (err as Error).message }, 'reconcile: the daily run could not ask the provider; it tries again tomorrow')
  }
}

const asked = <T>(p: Promise<T>) =>
  p.catch((err: unknown) => {
    if (err instanceof ProviderUnavailable || err instanceof ProviderRefused) throw refuse(Refusals.PAYOUT_PROVIDER_UNAVAILABLE)
    throw err
  })

/** `npm run ops -- reconcile --date D`: the day D in the wallet's time zone. */
export async function reconcileDay(deps: ApiDeps, date: string) {
  if (deps.payouts.name === 'manual') return { date, provider: 'manual', checked: 0, differences: [], unreadable: [] }
  // Noon UTC of that date lies inside that calendar day in every time zone we pay out in.
  const { start, end } = dayBounds(Date.parse(`${date}T12:00:00Z`), deps.config.wallet.timeZone)
  return { date, provider: deps.payouts.name, ...(await asked(reconcile(deps, start, end - 1))) }
}

/** On demand from the desk: the last 7 days, as the daily run does (banner included). */
export async function reconcileRecent(deps: ApiDeps) {
  const now = deps.now()
  if (deps.payouts.name === 'manual')
    return { from: now - RECONCILE_DAYS * DAY, to: now, provider: 'manual', checked: 0, differences: [], unreadable: [] }
  const from = now - RECONCILE_DAYS * DAY
  return { from, to: now, provider: deps.payouts.name, ...(await asked(reconcileAndAlert(deps, from, now))) }
}
