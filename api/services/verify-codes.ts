import { CodeType } from '#contract/accounts'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { alreadyRegisteredMail, verifyCodeMail } from '../lib/messages'
import { newVerifyCode } from '../lib/tokens'
import { findLiveCode, giveBackAttempt, markCodeUsed, replaceCode, takeAttempt } from '../models/email-codes'
import { hitRateLimit } from '../models/rate-limits'
import { findUserByEmail } from '../models/users'

export const CODE_LIFETIME_MS = 10 * 60_000
export const MAX_CODE_ATTEMPTS = 5
export const CODE_RESEND_MS = 60_000
/**
 * Codes per e-mail+type a day. Without it one address could be sent 1 440 mails a day, and a
 * guesser with 5 tries a code could try 7 200 times a day; with it, 50 tries in a million.
 */
export const CODES_PER_DAY = 10
const DAY_MS = 86_400_000

/**
 * "Send me a code". The answer (and its timing) is the same whether or not an account exists:
 * the once-a-minute and per-day rules count every ask, a code is always hashed, and mail leaves
 * in the background. What is actually mailed depends on the account:
 * - type 1 (register): a code if the address is free, otherwise a note that an account exists;
 * - types 2, 3 (reset password, sign in): a code only if an account exists, otherwise nothing;
 * - types 4, 5 (reset PIN, delete account): the caller is signed in; the code goes to their own
 *   address, which the route passes as `email`.
 */
export async function sendVerifyCode(deps: ApiDeps, email: string, type: CodeType, _requester: string): Promise<void> {
  const now = deps.now()
  const throttle = await hitRateLimit(deps.db, `emailCode:${type}:${email}`, CODE_RESEND_MS, now)
  if (throttle.hits > 1) throw refuse(Refusals.CODE_TOO_SOON)
  const daily = await hitRateLimit(deps.db, `emailCodeDay:${type}:${email}`, DAY_MS, now)
  if (daily.hits > CODES_PER_DAY) throw refuse(Refusals.CODE_LIMIT_REACHED)

  const code = newVerifyCode()
  const codeHash = await deps.hasher.hash(code)
  const user = await findUserByEmail(deps.db, email)
  const brand = deps.config.brandName

  if (type === CodeType.REGISTER && user) {
    deps.mail.send({ to: email, ...alreadyRegisteredMail(brand) })
    return
  }
  if (type !== CodeType.REGISTER && !user) return

  await replaceCode(deps.db, { email, type, codeHash, lifetimeMs: CODE_LIFETIME_MS }, now)
  deps.mail.send({ to: email, codeType: type, ...verifyCodeMail(brand, type, code, CODE_LIFETIME_MS / 60_000) })
}

/**
 * Checks a code for e-mail+type. Every wrong answer spends one of MAX_CODE_ATTEMPTS tries; the
 * last one burns the code. With `consume` a right answer uses the code up (single use); without,
 * the try is given back so the code still works for the real action.
 */
export async function checkVerifyCode(
  deps: ApiDeps,
  email: string,
  type: CodeType,
  verifyCode: string,
  { consume }: { consume: boolean },
): Promise<boolean> {
  const { db } = deps
  const row = await findLiveCode(db, email, type, deps.now(), MAX_CODE_ATTEMPTS)
  if (!row || !(await takeAttempt(db, row.id, MAX_CODE_ATTEMPTS))) return deps.hasher.verifyDummy(verifyCode)
  if (!(await deps.hasher.verify(verifyCode, row.code_hash))) return false
  if (consume) return markCodeUsed(db, row.id, deps.now())
  await giveBackAttempt(db, row.id)
  return true
}

/** checkVerifyCode that consumes, or the BAD_VERIFY_CODE refusal. */
export async function useVerifyCode(deps: ApiDeps, email: string, type: CodeType, verifyCode: string): Promise<void> {
  if (!(await checkVerifyCode(deps, email, type, verifyCode, { consume: true }))) {
    throw refuse(Refusals.BAD_VERIFY_CODE)
  }
}
