import { CodeType, type DelAccountBody, type DelAccountInfo } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import type { Db } from '../db/connect'
import type { User } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { ApiError, refuse, refuseSaying, unauthorized } from '../lib/envelope'
import { msg } from '../lib/messages'
import { createStorage } from '../lib/storage'
import { countOpenItems, eraseAccount } from '../models/account-deletion'
import { audit } from '../models/audit-log'
import { hitRateLimit, unhitRateLimit } from '../models/rate-limits'
import { revokeUserSessions } from '../models/sessions'
import { findUserById } from '../models/users'
import { findWallet, lockWallet } from './ledger'
import { useVerifyCode } from './verify-codes'

/**
 * Deleting one's own account (DESIGN §3 delAccount). Refused, with the reason, while money or
 * work is open: money in the wallet or on hold, withdrawals on their way, orders in the queue, in
 * review or waiting for the person's answer, because none of it could be paid to a deleted
 * account. Confirmed with the password, or (an account without one) an e-mail code of type 5.
 * Then, in one transaction: every token revoked, the personal data erased, the books kept under
 * the bare user id (models/account-deletion.ts says what exactly), and an audit entry.
 */

/**
 * Wrong passwords here count in the same place, window and limit as failed sign-ins of the
 * address (loginFailLimiter in api/middleware/rate-limit.ts keys `login:fail:<email>`): a stolen
 * session gets no second door for guessing the password.
 */
const LOGIN_FAIL_PREFIX = 'login:fail:'
const LOGIN_FAIL_WINDOW_MS = 15 * 60_000

type Standing = Pick<DelAccountInfo, 'balance' | 'frozen' | 'currency' | 'openOrders' | 'openWithdrawals'>

async function standingOf(deps: ApiDeps, db: Db, userId: string): Promise<Standing> {
  const [wallet, open] = await Promise.all([findWallet(db, userId), countOpenItems(db, userId)])
  return {
    balance: Number(wallet?.balance ?? 0),
    frozen: Number(wallet?.frozen ?? 0),
    currency: wallet?.currency ?? deps.config.wallet.currency,
    ...open,
  }
}

/** Why the account cannot go now, as the refusal to answer; null when nothing is open. */
function blockerOf(deps: ApiDeps, s: Standing): ApiError | null {
  const money = (amount: number) => formatMoney(amount, s.currency)
  if (s.balance > 0) {
    const min = deps.config.wallet.withdrawMin
    // Less than the smallest withdrawal cannot be withdrawn: say so, rather than send them in a circle.
    if (s.balance < min) {
      return refuse(Refusals.DELETE_BALANCE_TOO_SMALL, { balance: money(s.balance), min: money(min) })
    }
    return refuse(Refusals.DELETE_BALANCE_LEFT, { balance: money(s.balance) })
  }
  if (s.frozen > 0) {
    return refuse(Refusals.DELETE_MONEY_ON_HOLD, { amount: money(s.frozen) })
  }
  if (s.openWithdrawals > 0) return refuse(Refusals.DELETE_WITHDRAWALS_OPEN)
  if (s.openOrders > 0) {
    return s.openOrders === 1
      ? refuse(Refusals.DELETE_ORDERS_OPEN)
      : refuseSaying(
          Refusals.DELETE_ORDERS_OPEN,
          `You have ${s.openOrders} open orders. Wait until they are finished, then delete your account`,
        )
  }
  return null
}

/** What the screen shows before the form: how to confirm, and what stands in the way. */
export async function delAccountInfo(deps: ApiDeps, user: User): Promise<DelAccountInfo> {
  const standing = await standingOf(deps, deps.db, user.id)
  const blocked = blockerOf(deps, standing)
  return {
    confirmWith: user.password_hash ? 'password' : 'code',
    ...standing,
    blocker: blocked && { code: blocked.code, msg: blocked.message },
  }
}

export async function delAccount(deps: ApiDeps, user: User, body: DelAccountBody): Promise<null> {
  // An account with a password is confirmed with it: a session and a mailbox are not enough.
  if (user.password_hash && body.password === undefined) throw refuse(Refusals.DELETE_USE_PASSWORD)
  if (!user.password_hash && body.verifyCode === undefined) throw refuse(Refusals.DELETE_USE_CODE)
  // What is open is said before any secret is checked: no guess or code is spent on a refusal.
  const blocked = blockerOf(deps, await standingOf(deps, deps.db, user.id))
  if (blocked) throw blocked
  if (body.password !== undefined) await checkPassword(deps, user, body.password)
  else await useVerifyCode(deps, user.email, CodeType.DELETE_ACCOUNT, body.verifyCode!)

  const now = deps.now()
  const erased = await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    // Withdrawals and ledger movements take this lock too (SQLite: BEGIN IMMEDIATE holds the
    // write lock), so no money arrives or leaves between the check below and the erasure.
    await lockWallet(trx, deps.dbKind, user.id, deps.config.wallet.currency, now)
    // A twin request that got here first has erased the account and revoked this token.
    if ((await findUserById(trx, user.id))?.email !== user.email) throw unauthorized()
    const standing = await standingOf(deps, trx, user.id)
    const late = blockerOf(deps, standing)
    if (late) throw late
    await revokeUserSessions(trx, user.id, now)
    const result = await eraseAccount(trx, user.id, user.email, now)
    await audit(
      trx,
      {
        actor: `user:${user.id}`,
        action: 'account.delete',
        targetType: 'user',
        targetId: user.id,
        // Counts only: the audit log is kept, so it must not keep what was erased.
        before: { confirmedWith: body.password !== undefined ? 'password' : 'code', googleLinked: user.google_sub !== null },
        after: { bankCardsErased: result.bankCards, notificationsDeleted: result.notifications, photosDeleted: result.uploadKeys.length },
      },
      now,
    )
    return result
  })
  await removePhotos(deps, erased.uploadKeys)
  deps.logger.info({ userId: user.id }, 'account deleted')
  return null
}

/**
 * The password, counted like a sign-in: the try is counted first (so parallel guesses cannot all
 * slip under the limit), and given back when the password is right or was never checked.
 */
async function checkPassword(deps: ApiDeps, user: User, password: string): Promise<void> {
  const key = LOGIN_FAIL_PREFIX + user.email
  const { hits } = await hitRateLimit(deps.db, key, LOGIN_FAIL_WINDOW_MS, deps.now())
  if (hits > deps.config.loginFailLimit) {
    await unhitRateLimit(deps.db, key)
    throw new ApiError(429, Code.TOO_MANY_REQUESTS, msg.tooManyRequests, LOGIN_FAIL_WINDOW_MS / 1000)
  }
  let ok: boolean
  try {
    ok = await deps.hasher.verify(password, user.password_hash!)
  } catch (err) {
    await unhitRateLimit(deps.db, key)
    throw err
  }
  if (!ok) throw refuse(Refusals.DELETE_WRONG_PASSWORD)
  await unhitRateLimit(deps.db, key)
}

/** The bytes of the erased photos, after the commit; a failure leaves an orphan file, never an account. */
async function removePhotos(deps: ApiDeps, keys: string[]): Promise<void> {
  if (keys.length === 0) return
  const storage = createStorage(deps.config.selling.storage)
  for (const key of keys) {
    try {
      await storage.delete(key)
    } catch (err) {
      deps.logger.warn({ reason: (err as Error)?.message }, 'photo of a deleted account left in storage')
    }
  }
}
