import type { PayoutAccount } from '#contract/ops/payouts'
import { Refusals } from '#contract/refusals'
import type { PayoutSpeed } from '#contract/wallet'
import type { ApiDeps } from '../deps'
import { findBank } from '../lib/banks'
import { refuse } from '../lib/envelope'
import { audit } from '../models/audit-log'
import { findBankCard } from '../models/bank-cards'
import { paidDurationsSince } from '../models/payout-speed'

/**
 * What a payouts person needs to pay a withdrawal by hand, and how fast payouts have been. The full
 * account number leaves only here, one withdrawal at a time, with an audit entry naming who asked
 * (the number itself is never written to the audit log or the log).
 */
export async function revealAccount(deps: ApiDeps, actor: string, id: string): Promise<PayoutAccount> {
  const row = await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  const card = await findBankCard(deps.db, row.bank_card_id)
  if (!card) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
  await audit(
    deps.db,
    { actor, action: 'withdrawal.reveal_account', targetType: 'withdrawal', targetId: row.id, before: null, after: null },
    deps.now(),
  )
  return {
    withdrawalId: row.id,
    bankName: findBank(row.currency, card.bank_code)?.name ?? `Bank ${card.bank_code}`,
    bankCode: card.bank_code,
    accountName: card.account_name,
    accountNumber: card.account_number,
    amountToSend: Number(row.amount) - Number(row.fee),
    currency: row.currency,
  }
}

const DAY = 86_400_000
const SPEED_DAYS = 7
/** Fewer paid withdrawals than this in the window, and no figure is shown (decision 040). */
const SPEED_MIN_PAID = 20

/** The value at fraction q of sorted values (nearest rank). */
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!

/** Withdraw asks on every visit; a week's figure does not change within a minute. */
const SPEED_FRESH_MS = 60_000
const speeds = new WeakMap<ApiDeps, { at: number; speed: Promise<PayoutSpeed> }>()

/** Request to paid, over the last SPEED_DAYS days: the median and the 90th percentile in whole minutes. */
export function payoutSpeed(deps: ApiDeps): Promise<PayoutSpeed> {
  const now = deps.now()
  const kept = speeds.get(deps)
  if (kept && now >= kept.at && now - kept.at < SPEED_FRESH_MS) return kept.speed
  const speed = measureSpeed(deps, now)
  speeds.set(deps, { at: now, speed })
  speed.catch(() => speeds.delete(deps))
  return speed
}

async function measureSpeed(deps: ApiDeps, now: number): Promise<PayoutSpeed> {
  const durations = (await paidDurationsSince(deps.db, now - SPEED_DAYS * DAY)).sort((a, b) => a - b)
  const enough = durations.length >= SPEED_MIN_PAID
  const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000))
  return {
    days: SPEED_DAYS,
    paid: durations.length,
    medianMinutes: enough ? minutes(quantile(durations, 0.5)) : null,
    p90Minutes: enough ? minutes(quantile(durations, 0.9)) : null,
  }
}
