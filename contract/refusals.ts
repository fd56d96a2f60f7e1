/**
 * Business refusals: HTTP 200, their own code, a sentence for the person (DESIGN §3). One record
 * each, used by the api to refuse and by the web to recognise a refusal it treats specially;
 * docs/api.md carries the same table (tests/api/contract.test.ts keeps it true).
 * Codes are never reused: a retired refusal keeps its number.
 */
export type Refusal = { readonly code: number; readonly msg: string }

export const Refusals = {
  /** Wrong e-mail/password pair, or no such account (answered the same on purpose). */
  BAD_CREDENTIALS: { code: 4001, msg: 'Incorrect e-mail or password' },
  /** Verification code wrong, expired, used or burnt. */
  BAD_VERIFY_CODE: { code: 4002, msg: 'The verification code is wrong or has expired' },
  /** A new code was asked for within a minute of the last one. */
  CODE_TOO_SOON: { code: 4003, msg: 'Please wait a minute before asking for another code' },
  /** Registration for an e-mail that already has an account. */
  EMAIL_TAKEN: { code: 4004, msg: 'An account with this e-mail already exists. Sign in instead' },
  /** Password is one of the most common ones. */
  WEAK_PASSWORD: { code: 4005, msg: 'This password is too common. Choose another one' },
  /** Google id_token could not be verified. */
  BAD_ID_TOKEN: { code: 4006, msg: 'Google sign-in could not be verified' },
  /** The e-mail's account is linked to another Google account. */
  ACCOUNT_ALREADY_BOUND: { code: 4007, msg: 'This e-mail is linked to a different Google account' },
  /** The daily number of codes for this requester, e-mail and type is used up. */
  CODE_LIMIT_REACHED: { code: 4008, msg: 'Too many codes were asked for this e-mail today. Try again tomorrow' },
} as const satisfies Record<string, Refusal>

export type RefusalName = keyof typeof Refusals

/** The name of a refusal code, for logs and docs. */
export function refusalName(code: number): RefusalName | undefined {
  return (Object.keys(Refusals) as RefusalName[]).find((k) => Refusals[k].code === code)
}
