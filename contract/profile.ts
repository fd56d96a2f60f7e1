import { z } from 'zod'
import { giftCardSchema } from './catalogue'
import { get, noQuery, post } from './endpoint'
import { orderSummarySchema } from './orders'
import { NICKNAME_MAX, NICKNAME_MIN } from './profile-rules'
import { taskInfoSchema } from './tasks'

export { NICKNAME_MAX, NICKNAME_MIN } from './profile-rules'

export const userInfoSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string().optional(),
  headImg: z.string().nullable(),
  /** The e-mail of the linked Google account (Google-verified), or null when none is linked. */
  googleEmail: z.string().nullable().default(null),
})
export type UserInfo = z.infer<typeof userInfoSchema>

/**
 * The wallet at a glance, in the one call every page makes (Home's balance card, Account's rows),
 * so those pages cost one api call, not two (docs/performance.md). The Wallet screen asks
 * /v1/wallet/info for the whole picture.
 */
export const walletSummarySchema = z.object({
  balance: z.number().int().nonnegative(),
  frozen: z.number().int().nonnegative(),
  currency: z.string(),
  hasPin: z.boolean(),
  bankCardCount: z.number().int().nonnegative(),
  /** The installation's time zone (IANA), in which order and message times are shown. */
  timeZone: z.string().default('Africa/Lagos'),
  /** /v1/wallet/info's `payouts.resolvesNames`: Add Bank Card asks the bank for the holder's name. */
  resolvesNames: z.boolean().default(false),
})
export type WalletSummary = z.infer<typeof walletSummarySchema>

/** taskInfos is filled by a later issue (tasks); arrays so old clients keep parsing. */
export const userIndexData = z.object({
  userInfo: userInfoSchema.nullable(),
  wallet: walletSummarySchema.nullable().default(null),
  taskInfos: z.array(taskInfoSchema).default([]),
  giftCardList: z.array(giftCardSchema).default([]),
  unreadCount: z.number().int().nonnegative().default(0),
  /**
   * Orders still waiting for a decision — pending, reviewing, or proposed (waiting for the
   * person's answer) — newest first, at most OPEN_ORDERS_SHOWN, and how many there are: Home's
   * "In review" list without a second call.
   */
  openOrders: z.object({ count: z.number().int().nonnegative(), latest: z.array(orderSummarySchema) }).default({ count: 0, latest: [] }),
})
export const OPEN_ORDERS_SHOWN = 3
export type UserIndexData = z.infer<typeof userIndexData>

export const userNameField = z
  .string({ required_error: 'Nickname is required', invalid_type_error: 'Nickname must be text' })
  .trim()
  .min(1, 'Nickname is required')
  .max(NICKNAME_MAX, `Nickname must be at most ${NICKNAME_MAX} characters`)
  // Control characters and angle brackets have no place in a display name.
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f<>]*$/, 'Nickname has characters that are not allowed')
  // Apart from min(1): an empty one says "required" alone, not twice.
  .refine((name) => name.length === 0 || name.length >= NICKNAME_MIN, `Nickname must be at least ${NICKNAME_MIN} characters`)

/**
 * An avatar address a page may put in `<img src>`: a path on our own origin, or an https address
 * (a Google picture). `//host/x` and `/\host/x` are other origins to a browser, however they
 * start; whitespace and backslashes have no place in either form.
 */
export const isAvatarAddress = (value: string) => /^(\/(?![/\\])|https:\/\/(?![/\\]))[^\s\\]*$/.test(value)

export const headImgField = z
  .string({ invalid_type_error: 'Avatar must be text' })
  .max(2048, 'Avatar address is too long')
  .refine(isAvatarAddress, 'Avatar must be an uploaded image')
  .nullable()

export const setInfoBody = z
  .object({ userName: userNameField.optional(), headImg: headImgField.optional() })
  .strict()
  .refine((b) => b.userName !== undefined || b.headImg !== undefined, {
    message: 'Nothing to update: send userName or headImg',
  })
export type SetInfoBody = z.infer<typeof setInfoBody>

/** setInfo answers with the updated userInfo. */
export type SetInfoData = UserInfo

/** The signed-in person's own profile (SPEC §7 /v1/user/index and setInfo). */
export const profileApi = {
  index: get('/v1/user/index', 'user', noQuery, userIndexData),
  setInfo: post('/v1/user/setInfo', 'user', setInfoBody, userInfoSchema),
}
