import { createHmac } from 'node:crypto'
import { CodeType } from '#contract/accounts'
import { type ResetPinBody, type SetPinBody } from '#contract/pin'
import { PIN_LOCK_MINUTES, PIN_MAX_TRIES, PIN_RESET_WAIT_HOURS, pinWrongParams } from '#contract/pin-rules'
import { Refusals } from '#contract/refusals'
import type { PinState } from '#contract/wallet'
import type { User, WithdrawalPinRow } from '../db/schema'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { addNotification } from '../models/notifications'
import { findPin, insertPin, recordPinResult, releasePinMutex, replacePin, takePinMutex } from '../models/pins'
import { useVerifyCode } from './verify-codes'

/**
 * The withdrawal PIN. Stored as the hasher's slow hash of HMAC(PIN_PEPPER, pin): a copy of the
 * database alone is not enough to try the million PINs. One check at a time per person (a
 * mutex row, so parallel guesses cannot all slip in before the fifth wrong one locks), five
 * wrong PINs lock PIN actions for 30 minutes, and a right PIN forgives the earlier wrong ones.
 */
const LOCK_MS = PIN_LOCK_MINUTES * 60_000
const RESET_WAIT_MS = PIN_RESET_WAIT_HOURS * 3_600_000
/** Longest a check may hold the mutex (a crashed process frees it after this). */
const MUTEX_HOLD_MS = 5_000
const MUTEX_WAIT_MS = 6_000

const peppered = (deps: ApiDeps, pin: string) => createHmac('sha256', deps.config.wallet.pinPepper).update(pin).digest('base64url')
const hashPin = (deps: ApiDeps, pin: string) => deps.hasher.hash(peppered(deps, pin))

const lockedUntil = (until: number, timeZone: string) => ({
  until: new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(until),
})

export function pinState(row: WithdrawalPinRow | undefined, now: number): PinState {
  if (!row) return { hasPin: false, lockedUntil: null, triesLeft: PIN_MAX_TRIES, withdrawBlockedUntil: null }
  const locked = row.locked_until !== null && Number(row.locked_until) > now
  const blocked = row.withdraw_blocked_until !== null && Number(row.withdraw_blocked_until) > now
  return {
    hasPin: true,
    lockedUntil: locked ? Number(row.locked_until) : null,
    triesLeft: locked ? 0 : Math.max(0, PIN_MAX_TRIES - row.failed_count),
    withdrawBlockedUntil: blocked ? Number(row.withdraw_blocked_until) : null,
  }
}

export async function getPinState(deps: ApiDeps, userId: string): Promise<PinState> {
  return pinState(await findPin(deps.db, userId), deps.now())
}

async function takeMutex(deps: ApiDeps, userId: string): Promise<void> {
  // Real time for waiting: the injected clock may stand still in tests.
  const giveUpAt = Date.now() + MUTEX_WAIT_MS
  for (;;) {
    if (await takePinMutex(deps.db, userId, deps.now(), MUTEX_HOLD_MS)) return
    if (Date.now() > giveUpAt) throw refuse(Refusals.PIN_BUSY)
    await new Promise((r) => setTimeout(r, 15 + Math.random() * 25))
  }
}

/**
 * Checks `pin`, then runs `work` while still holding the person's PIN mutex (so a withdrawal's
 * idempotency check and its hold happen one request at a time). Wrong PIN, lock or no PIN:
 * refused, `work` not run.
 */
export async function withPin<T>(deps: ApiDeps, userId: string, pin: string, work: (row: WithdrawalPinRow) => Promise<T>): Promise<T> {
  const first = await findPin(deps.db, userId)
  if (!first) throw refuse(Refusals.PIN_NOT_SET)
  await takeMutex(deps, userId)
  try {
    const row = (await findPin(deps.db, userId))!
    const now = deps.now()
    if (row.locked_until !== null && Number(row.locked_until) > now) {
      throw refuse(Refusals.PIN_LOCKED, lockedUntil(Number(row.locked_until), deps.config.wallet.timeZone))
    }
    // A lock that has ended starts the count again.
    const failedBefore = row.locked_until !== null ? 0 : row.failed_count
    if (!(await deps.hasher.verify(peppered(deps, pin), row.pin_hash))) {
      const failed = failedBefore + 1
      if (failed >= PIN_MAX_TRIES) {
        const until = now + LOCK_MS
        await recordPinResult(deps.db, userId, { failed_count: 0, locked_until: until }, now)
        throw refuse(Refusals.PIN_LOCKED, lockedUntil(until, deps.config.wallet.timeZone))
      }
      await recordPinResult(deps.db, userId, { failed_count: failed, locked_until: null }, now)
      const left = PIN_MAX_TRIES - failed
      throw refuse(Refusals.PIN_WRONG, pinWrongParams(left))
    }
    if (row.failed_count !== 0 || row.locked_until !== null)
      await recordPinResult(deps.db, userId, { failed_count: 0, locked_until: null }, now)
    return await work(row)
  } finally {
    await releasePinMutex(deps.db, userId)
  }
}

/** First PIN `{pin}`, or a change `{oldPin, pin}`. */
export async function setPin(deps: ApiDeps, user: User, body: SetPinBody): Promise<null> {
  if (body.oldPin === undefined) {
    if (!(await insertPin(deps.db, user.id, await hashPin(deps, body.pin), deps.now()))) throw refuse(Refusals.PIN_ALREADY_SET)
    return null
  }
  const newHash = await hashPin(deps, body.pin)
  await withPin(deps, user.id, body.oldPin, async () => {
    await replacePin(deps.db, user.id, newHash, deps.now())
    await addNotification(
      deps.db,
      {
        userId: user.id,
        kind: 'security',
        title: 'Withdrawal PIN changed',
        content: 'Your withdrawal PIN was changed. If this was not you, reset it now and contact support.',
      },
      deps.now(),
    )
  })
  return null
}

/** A new PIN with an e-mail code (type 4) sent to the person's own address; withdrawals then wait 24 hours. */
export async function resetPin(deps: ApiDeps, user: User, body: ResetPinBody): Promise<null> {
  await useVerifyCode(deps, user.email, CodeType.RESET_PIN, body.verifyCode)
  const now = deps.now()
  await replacePin(deps.db, user.id, await hashPin(deps, body.pin), now, now + RESET_WAIT_MS)
  await addNotification(
    deps.db,
    {
      userId: user.id,
      kind: 'security',
      title: 'Withdrawal PIN reset',
      content: `Your withdrawal PIN was reset with an e-mail code. For your safety, withdrawals open again in ${PIN_RESET_WAIT_HOURS} hours.`,
    },
    now,
  )
  return null
}
