import { z } from 'zod'
import { get, noQuery } from './endpoint'
import { currencyCode, minorUnits } from './money-fields'

/**
 * What the Help & Support screen (app/routes/support.tsx, public) quotes from the installation's
 * settings, so its answers are the numbers the Withdraw screen applies, for visitors too. The PIN
 * rules and the payout rule are constants of the contract (pin.ts, catalogue.ts); review times are
 * the catalogue's.
 */
export const supportInfoData = z.object({
  currency: currencyCode,
  withdraw: z.object({
    /** Smallest withdrawal, fee included. */
    min: minorUnits,
    /** Charged on each withdrawal, taken from the amount. */
    fee: minorUnits,
    /** Most that can leave the wallet in one day. */
    dailyMax: minorUnits,
    /** The promise: a withdrawal is in the bank within this many hours. */
    payoutHours: z.number().int().positive(),
    /** Time zone of "today" for the daily maximum. */
    timeZone: z.string(),
  }),
})
export type SupportInfo = z.infer<typeof supportInfoData>

export const supportApi = {
  info: get('/v1/support/info', 'public', noQuery, supportInfoData),
}
