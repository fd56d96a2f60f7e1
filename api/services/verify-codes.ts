import { CodeType } from '#contract/accounts'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { alreadyRegisteredMail, verifyCodeMail } from '../lib/messages'
import { newVerifyCode } from '../lib/tokens'
import { findLiveCode, giveBackAttempt, markCodeUsed, replaceCode, takeAttempt } from '../models/email-codes'
import { hitRateLimit } from '../models/rate-limits'
import { knownPlaceOf } from '../models/sign-in-places'
import { findUserByEmail } from '../models/users'

export const CODE_LIFETIME_MS = 10 * 60_000
export const MAX_CODE_ATTEMPTS = 5
export const CODE_RESEND_MS = 60_000
/**
 * Daily caps on codes, in two layers (docs/api.md "E-mail verification codes" says the same):
 *
 * - CODES_PER_DAY per requester, address and type: the requester is the caller's address (an IPv6
 *   caller by its /64). This is the cap people meet. It used to be per address only, so ten asks by
 *   anyone for someone else's address locked that person out of code sign-in for the day; now ten
 *   asks cost the asker, and the owner asking from their own connection still has their ten.
 * - CODES_PER_ADDRESS_DAY per address and type, whoever asks: the ceiling that keeps mail to one
 *   inbox and guesses at one account bounded when the asks come from many connections. At 30 it
 *   takes three connections' full allowance to reach it (one attacker leaves the owner 20), and
 *   it bounds an inbox to 30 mails a day per type and a guesser (5 tries a code) to 150 tries a day
 *   at a 6-digit code: 1.5 in 10 000. Lower would let fewer connections lock the owner out; higher
 *   would make guessing and mail floods cheaper. A device or address the account signed in from
 *   before passes it, so strangers who reach it cannot stop the owner's sign-in by code.
 *
 * The once-a-minute rule is per requester too, so another caller's ask never makes the owner wait.
 */
export const CODES_PER_DAY = 10
export const CODES_PER_ADDRESS_DAY = 30
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
export async function sendVerifyCode(
  deps: ApiDeps,
  email: string,
  type: CodeType,
  requester: { address: string; places: string[] },
): Promise<void> {
  const now = deps.now()
  const asker = `${requester.address}:${type}:${email}`
  const throttle = await hitRateLimit(deps.db, `emailCode:${asker}`, CODE_RESEND_MS, now)
  if (throttle.hits > 1) throw refuse(Refusals.CODE_TOO_SOON)
  const daily = await hitRateLimit(deps.db, `emailCodeDay:${asker}`, DAY_MS, now)
  if (daily.hits > CODES_PER_DAY) throw refuse(Refusals.CODE_LIMIT_REACHED)
  const ceiling = await hitRateLimit(deps.db, `emailCodeDayAll:${type}:${email}`, DAY_MS, now)
  // Strangers reaching the ceiling must not lock the owner out: a device or address the account
  // signed in from before still gets its own CODES_PER_DAY.
  if (ceiling.hits > CODES_PER_ADDRESS_DAY && !(await knownPlaceOf(deps.db, email, requester.places))) {
    throw refuse(Refusals.CODE_LIMIT_REACHED)
  }

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
