import type { PayoutSpeed } from '#contract/wallet'
import type { ApiDeps } from '../deps'
import { paidDurationsSince } from '../models/payout-speed'

/** How fast payouts have reached the bank: Withdraw says it (decision 040). */
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
