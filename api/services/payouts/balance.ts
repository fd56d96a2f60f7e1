import { formatMoney } from '#contract/money'
import type { ApiDeps } from '../../deps'

/**
 * The company's float (decision 038): Paystack's balance, asked before each batch and on a
 * schedule. When it cannot cover the payouts waiting to be sent, sending stops (they wait as
 * "queued, sending shortly", never failed), the desk shows the shortfall and an alert is logged
 * and counted; it resumes by itself once the balance covers them.
 */

export const LOW_BALANCE = 'low_balance'

/** Net amounts of the automatic payouts due to be sent (not sent yet), oldest first. */
export async function waitingToSend(deps: ApiDeps): Promise<number> {
  const r = await deps.db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('amount', '-', eb.ref('fee'))), eb.lit(0)).as('total'))
    .where('payout_provider', 'is not', null)
    .where('status', '=', 'pending')
    .where('payout_sent_at', 'is', null)
    .where('payout_next_at', 'is not', null)
    .executeTakeFirstOrThrow()
  return Number(r.total)
}

/** Raises (or updates) a desk banner; logs and counts it when it is new. */
export async function raiseAlert(deps: ApiDeps, kind: string, message: string, amount: number | null) {
  const now = deps.now()
  const seen = await deps.db.selectFrom('payout_alerts').select('kind').where('kind', '=', kind).executeTakeFirst()
  if (seen) {
    await deps.db.updateTable('payout_alerts').set({ message, amount, updated_at: now }).where('kind', '=', kind).execute()
    return
  }
  await deps.db
    .insertInto('payout_alerts')
    .values({ kind, message, amount, raised_at: now, updated_at: now })
    .onConflict((oc) => oc.column('kind').doUpdateSet({ message, amount, updated_at: now }))
    .execute()
  deps.metrics.payoutAlert(kind === LOW_BALANCE ? 'low_balance' : 'reconcile_difference')
  deps.logger.error({ alert: kind, amount }, `payout alert: ${message}`)
}

export async function clearAlert(deps: ApiDeps, kind: string) {
  const r = await deps.db.deleteFrom('payout_alerts').where('kind', '=', kind).executeTakeFirst()
  if (Number(r.numDeletedRows) > 0) deps.logger.info({ alert: kind }, 'payout alert cleared')
}

/** Says the float is short for the waiting payouts (Paystack's own refusal may count fees we do not see). */
export function lowBalance(deps: ApiDeps, balance: number, needed: number) {
  const money = (n: number) => formatMoney(n, deps.config.wallet.currency)
  const short = needed - balance
  return raiseAlert(
    deps,
    LOW_BALANCE,
    short > 0
      ? `The Paystack balance (${money(balance)}) cannot cover the payouts waiting (${money(needed)}): top it up by ${money(short)}; payouts wait and resume by themselves`
      : `Paystack refused a payout for lack of balance (${money(balance)}, its fees included): top it up; payouts wait and resume by themselves`,
    Math.max(short, 0),
  )
}

/**
 * Asks the balance and compares it with what waits to be sent: raises or clears the banner.
 * Answers the balance, or null when the provider could not be asked (then nothing is stopped:
 * Paystack's own refusal still keeps money safe).
 */
export async function checkBalance(deps: ApiDeps): Promise<number | null> {
  if (deps.payouts.name === 'manual') return null
  let balance: number
  try {
    balance = await deps.payouts.balance(deps.config.wallet.currency)
  } catch (err) {
    deps.logger.info({ problem: (err as Error).message }, 'payout: balance not known, sending goes on')
    return null
  }
  const needed = await waitingToSend(deps)
  if (needed > balance) await lowBalance(deps, balance, needed)
  else await clearAlert(deps, LOW_BALANCE)
  return balance
}

/** One pass's float: each payout sent takes its amount; one that does not fit waits. */
export function floatGate(balance: number | null) {
  let left = balance
  return {
    take(amount: number): boolean {
      if (left === null) return true
      if (amount > left) return false
      left -= amount
      return true
    },
    /** Paystack said the balance is not enough: nothing more this pass. */
    empty() {
      left = 0
    },
  }
}
export type FloatGate = ReturnType<typeof floatGate>
