import { pinWrongParams } from '#contract/pin-rules'
import { formatRefusal, Refusals } from '#contract/refusals'

/**
 * What the web says before asking the api, in the api's own words: each sentence is its refusal
 * record's (decision 028). Apart from the catalogue in messages.ts, so a screen that checks nothing
 * of the kind (Home, History) does not load the refusal table.
 */
export const refusalMessages = {
  pinFirst: Refusals.PIN_NOT_SET.msg,
  pinLocked: (until: string) => formatRefusal(Refusals.PIN_LOCKED, { until }),
  triesLeft: (n: number) => formatRefusal(Refusals.PIN_WRONG, pinWrongParams(n)),
  resetBlocked: (until: string) => formatRefusal(Refusals.PIN_RECENTLY_RESET, { until }),
  bankCardLimit: (max: number) => formatRefusal(Refusals.BANK_CARD_LIMIT, { max }),
  belowMinimum: (min: string) => formatRefusal(Refusals.BELOW_MINIMUM, { min }),
  notAboveFee: (fee: string) => formatRefusal(Refusals.AMOUNT_BELOW_FEE, { fee }),
  overToday: (left: string) => formatRefusal(Refusals.OVER_DAILY_MAX, { left }),
  notAPhoto: Refusals.NOT_AN_IMAGE.msg,
  cardPhotoTooLarge: Refusals.FILE_TOO_LARGE.msg,
  avatarTooLarge: Refusals.AVATAR_TOO_LARGE.msg,
} as const
