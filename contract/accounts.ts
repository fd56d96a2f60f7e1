import { z } from 'zod'
import { get, noData, noInput, noQuery, post } from './endpoint'
import { currencyCode, minorUnits } from './money-fields'
import { PASSWORD_MAX, PASSWORD_MIN } from './password-rules'

/** Field rules shared by the api (authoritative) and the web forms (early, friendly). */
export { PASSWORD_MAX, PASSWORD_MIN }

export const emailField = z
  .string({ required_error: 'E-mail is required', invalid_type_error: 'E-mail must be text' })
  .trim()
  .min(1, 'E-mail is required')
  .max(254, 'E-mail is too long')
  .email('Enter a valid e-mail address')
  .transform((e) => e.toLowerCase())

export const passwordField = z
  .string({ required_error: 'Password is required', invalid_type_error: 'Password must be text' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)

/** For sign-in only: any non-empty password is checked against the hash (rules may have changed). */
export const loginPasswordField = z
  .string({ required_error: 'Password is required', invalid_type_error: 'Password must be text' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)

export const verifyCodeField = z
  .string({ required_error: 'Verification code is required', invalid_type_error: 'Verification code must be text' })
  .trim()
  .regex(/^\d{6}$/, 'Verification code is the 6 digits we e-mailed you')

/**
 * Verification code types. 1 and 2 are SPEC §5; the others are ours (DESIGN §3).
 */
export const CodeType = {
  REGISTER: 1,
  RESET_PASSWORD: 2,
  LOGIN: 3,
  RESET_PIN: 4,
  DELETE_ACCOUNT: 5,
} as const
export type CodeType = (typeof CodeType)[keyof typeof CodeType]

export const codeTypeField = z.coerce
  .number({ invalid_type_error: 'type must be a number' })
  .int('type must be 1, 2, 3, 4 or 5')
  .min(1, 'type must be 1, 2, 3, 4 or 5')
  .max(5, 'type must be 1, 2, 3, 4 or 5')
  .default(CodeType.REGISTER)

export const loginBody = z.object({ email: emailField, password: loginPasswordField }).strict()
export const registerBody = z.object({ email: emailField, password: passwordField, verifyCode: verifyCodeField }).strict()
export const sendEmailCodeBody = z.object({ email: emailField, type: codeTypeField }).strict()
export const checkEmailCodeBody = z.object({ email: emailField, type: codeTypeField, verifyCode: verifyCodeField }).strict()
export const resetPasswordBody = z.object({ email: emailField, password: passwordField, verifyCode: verifyCodeField }).strict()
export const loginByCodeBody = z.object({ email: emailField, verifyCode: verifyCodeField }).strict()
export const googleBody = z
  .object({ id_token: z.string({ required_error: 'id_token is required' }).min(1, 'id_token is required').max(8192) })
  .strict()

export type LoginBody = z.infer<typeof loginBody>
export type RegisterBody = z.infer<typeof registerBody>
export type SendEmailCodeBody = z.input<typeof sendEmailCodeBody>
export type CheckEmailCodeBody = z.input<typeof checkEmailCodeBody>
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>
export type LoginByCodeBody = z.infer<typeof loginByCodeBody>

/** login, register, loginByCode, google: data is the token string. */
export const tokenData = z.string().min(1)
/** googleNew: data has token and isNew. */
export const googleNewData = z.object({ token: z.string().min(1), isNew: z.boolean() })
export type GoogleNewData = z.infer<typeof googleNewData>

/**
 * Account deletion (DESIGN §3 delAccount): confirmed with the password, or — for an account that
 * has none (Google only) — an e-mail code of type 5 sent to the person's own address. Exactly one.
 */
export const delAccountBody = z
  .object({ password: loginPasswordField.optional(), verifyCode: verifyCodeField.optional() })
  .strict()
  .superRefine((b, ctx) => {
    if (b.password === undefined && b.verifyCode === undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Confirm with your password or the e-mailed verification code' })
    if (b.password !== undefined && b.verifyCode !== undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Send your password or the verification code, not both' })
  })
export type DelAccountBody = z.infer<typeof delAccountBody>

/**
 * Before the form: how the person confirms, and why the account cannot be deleted now (the same
 * refusal delAccount would answer), so the screen says it before anyone types a password.
 */
export const delAccountInfoData = z.object({
  confirmWith: z.enum(['password', 'code']),
  balance: minorUnits,
  frozen: minorUnits,
  currency: currencyCode,
  /** Orders waiting for review, in review, or waiting for the person's answer to an offer. */
  openOrders: z.number().int().nonnegative(),
  /** Withdrawals not yet paid or failed. */
  openWithdrawals: z.number().int().nonnegative(),
  blocker: z.object({ code: z.number().int(), msg: z.string() }).nullable(),
})
export type DelAccountInfo = z.infer<typeof delAccountInfoData>

/**
 * bindAccount (DESIGN §3): links an external account to the signed-in person. Google only for
 * now: the id_token is checked exactly as at sign-in, and the link is by Google's `sub`.
 */
export const bindAccountBody = z
  .object({
    provider: z.literal('google', { errorMap: () => ({ message: 'provider must be google' }) }),
    id_token: googleBody.shape.id_token,
  })
  .strict()
/** What is now linked: the provider and its (provider-verified) e-mail. */
export const bindAccountData = z.object({ provider: z.literal('google'), email: z.string().nullable() })
export type BindAccountData = z.infer<typeof bindAccountData>

/** SPEC §7 and DESIGN §3: the /auth calls. */
export const accountsApi = {
  login: post('/auth/login', 'public', loginBody, tokenData),
  register: post('/auth/register', 'public', registerBody, tokenData),
  /** Types 4 and 5 go to the signed-in person's own address, so a token is read when sent. */
  sendEmailCode: post('/auth/sendEmailCode', 'optional', sendEmailCodeBody, noData),
  checkEmailCode: post('/auth/checkEmailCode', 'optional', checkEmailCodeBody, noData),
  resetPassword: post('/auth/resetPassword', 'public', resetPasswordBody, noData),
  loginByCode: post('/auth/loginByCode', 'public', loginByCodeBody, tokenData),
  google: post('/auth/google', 'public', googleBody, tokenData),
  googleNew: post('/auth/googleNew', 'public', googleBody, googleNewData),
  /** Takes no fields (an empty object or no body at all); revokes the token sent, if any. */
  logout: post('/auth/logout', 'optional', noInput, noData),
  /** Links a Google account to the signed-in person (idempotent for the same one). */
  bindAccount: post('/v1/user/bindAccount', 'user', bindAccountBody, bindAccountData),
  /** Deletes the signed-in person's account: refused while money, orders or withdrawals are open. */
  delAccount: post('/v1/user/delAccount', 'user', delAccountBody, noData),
  delAccountInfo: get('/v1/user/delAccountInfo', 'user', noQuery, delAccountInfoData),
}
