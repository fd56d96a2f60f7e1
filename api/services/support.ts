import type { SupportInfo } from '#contract/support'
import type { ApiDeps } from '../deps'

/** The settings Help & Support quotes: the same ones withdrawals are checked against (services/withdrawals.ts). */
export function supportInfo(deps: ApiDeps): SupportInfo {
  const { wallet } = deps.config
  return {
    currency: wallet.currency,
    withdraw: {
      min: wallet.withdrawMin,
      fee: wallet.withdrawFee,
      dailyMax: wallet.withdrawDailyMax,
      payoutHours: wallet.payoutHours,
      timeZone: wallet.timeZone,
    },
  }
}
