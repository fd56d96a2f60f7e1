import {
  CodeType,
  type CheckEmailCodeBody,
  type GoogleNewData,
  type LoginBody,
  type LoginByCodeBody,
  type RegisterBody,
  type ResetPasswordBody,
  type SendEmailCodeBody,
} from '#contract/accounts'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../db/connect'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { isCommonPassword } from '../lib/common-passwords'
import { refuse, unauthorized } from '../lib/envelope'
import type { HashPriority } from '../lib/hash-gate'
import { addNotification } from '../models/notifications'
import { createSession, revokeSession, revokeUserSessions } from '../models/sessions'
import { isNewDevice, knownPlaceOf, rememberPlaces } from '../models/sign-in-places'
import { createUser, findUserByEmail, setPasswordHash, upgradePasswordHash } from '../models/users'
import { defaultUserName, signInWithGoogle } from './google'
import { checkVerifyCode, sendVerifyCode, useVerifyCode } from './verify-codes'

/**
 * The rules of signing up, in and out (SPEC §7 /auth). Each function takes parsed input and
 * answers the envelope's data or throws a refusal; routes/accounts.ts only binds them.
 */

/** Codes that go to the signed-in person's own address rather than the one in the body. */
const SIGNED_IN_TYPES: readonly number[] = [CodeType.RESET_PIN, CodeType.DELETE_ACCOUNT]

/**
 * Where the caller is (api/lib/sign-in-place.ts): its device and address keys. `address` alone is
 * the key a new account's sign-up is recorded under.
 */
export type Caller = { places: string[]; address: string }

/** A new session; the places it was started from become the person's known places. */
async function startSession(deps: ApiDeps, userId: string, caller: Caller): Promise<string> {
  const now = deps.now()
  if (await isNewDevice(deps.db, userId, caller.places)) {
    await addNotification(
      deps.db,
      {
        userId,
        kind: 'security',
        title: 'New device signed in',
        content:
          'Your account was signed in to from a device it had not been used on before. If this was not you, reset your password now.',
      },
      now,
    )
  }
  await rememberPlaces(deps.db, userId, caller.places, now)
  return createSession(deps.db, userId, now, deps.config.tokenTtlDays * 86_400_000)
}

function refuseCommonPassword(password: string) {
  if (isCommonPassword(password)) throw refuse(Refusals.WEAK_PASSWORD)
}

/** For types 4/5 the code belongs to the signed-in person; for the others to the body's address. */
function codeAddress(email: string, type: number, user: User | undefined): string {
  if (!SIGNED_IN_TYPES.includes(type)) return email
  if (!user) throw unauthorized()
  return user.email
}

export async function login(deps: ApiDeps, { email, password }: LoginBody, caller: Caller): Promise<string> {
  const [user, known] = await Promise.all([findUserByEmail(deps.db, email), knownPlaceOf(deps.db, email, caller.places)])
  // A device or address this person signed in from before is not queued behind strangers.
  const priority = known ? 'trusted' : 'stranger'
  // No account, or a Google-only one: spend the same time as a wrong password, answer the same.
  const { hasher } = deps
  const ok = user?.password_hash
    ? await hasher.verify(password, user.password_hash, priority)
    : await hasher.verifyDummy(password, priority)
  if (!user || !ok) throw refuse(Refusals.BAD_CREDENTIALS)
  if (user.password_hash && hasher.needsRehash(user.password_hash))
    await rehashPassword(deps, user.id, user.password_hash, password, priority)
  return startSession(deps, user.id, caller)
}

/**
 * The one moment we hold the password: a hash in an old format or cost (scrypt) becomes argon2id.
 * Best effort: a busy hasher or a failed write leaves the old hash, which still works next time.
 */
async function rehashPassword(
  deps: ApiDeps,
  userId: string,
  verifiedHash: string,
  password: string,
  priority: HashPriority,
): Promise<void> {
  try {
    // In the sign-in's own turn: a known caller's rehash is not queued behind strangers either.
    await upgradePasswordHash(deps.db, userId, verifiedHash, await deps.hasher.hash(password, priority))
  } catch (err) {
    deps.logger.warn({ userId, reason: (err as Error)?.message }, 'password rehash postponed')
  }
}

export async function register(deps: ApiDeps, { email, password, verifyCode }: RegisterBody, caller: Caller): Promise<string> {
  refuseCommonPassword(password)
  // The code first: only its owner learns whether the address is taken.
  await useVerifyCode(deps, email, CodeType.REGISTER, verifyCode)
  const passwordHash = await deps.hasher.hash(password)
  try {
    const user = await createUser(
      deps.db,
      { email, password_hash: passwordHash, user_name: defaultUserName(email), signup_address: caller.address },
      deps.now(),
    )
    return await startSession(deps, user.id, caller)
  } catch (err) {
    if (isUniqueViolation(err)) throw refuse(Refusals.EMAIL_TAKEN)
    throw err
  }
}

export async function sendEmailCode(
  deps: ApiDeps,
  { email, type }: SendEmailCodeBody & { type: CodeType },
  user: User | undefined,
  caller: Caller,
): Promise<null> {
  await sendVerifyCode(deps, codeAddress(email, type, user), type, caller)
  return null
}

export async function checkEmailCode(
  deps: ApiDeps,
  { email, type, verifyCode }: CheckEmailCodeBody & { type: CodeType },
  user: User | undefined,
): Promise<null> {
  if (!(await checkVerifyCode(deps, codeAddress(email, type, user), type, verifyCode, { consume: false }))) {
    throw refuse(Refusals.BAD_VERIFY_CODE)
  }
  return null
}

export async function resetPassword(deps: ApiDeps, { email, password, verifyCode }: ResetPasswordBody): Promise<null> {
  refuseCommonPassword(password)
  await useVerifyCode(deps, email, CodeType.RESET_PASSWORD, verifyCode)
  const user = await findUserByEmail(deps.db, email)
  if (!user) throw refuse(Refusals.BAD_VERIFY_CODE)
  await setPasswordHash(deps.db, user.id, await deps.hasher.hash(password), deps.now())
  // Whoever knew the old password is signed out everywhere.
  await revokeUserSessions(deps.db, user.id, deps.now())
  await addNotification(
    deps.db,
    {
      userId: user.id,
      kind: 'security',
      title: 'Password changed',
      content: 'Your password was reset with an e-mail code, and every device was signed out. If this was not you, reset it again now.',
    },
    deps.now(),
  )
  return null
}

export async function loginByCode(deps: ApiDeps, { email, verifyCode }: LoginByCodeBody, caller: Caller): Promise<string> {
  await useVerifyCode(deps, email, CodeType.LOGIN, verifyCode)
  const user = await findUserByEmail(deps.db, email)
  if (!user) throw refuse(Refusals.BAD_VERIFY_CODE)
  return startSession(deps, user.id, caller)
}

export async function googleSignIn(deps: ApiDeps, idToken: string, caller: Caller): Promise<GoogleNewData> {
  let identity
  try {
    identity = await deps.google(idToken)
  } catch (err) {
    // The reason helps operators (wrong audience, expired, keys unreachable); the token is not logged.
    deps.logger.warn({ reason: (err as Error)?.message, jose: (err as { code?: string })?.code }, 'google id_token refused')
    throw refuse(Refusals.BAD_ID_TOKEN)
  }
  const { user, isNew } = await signInWithGoogle(deps, identity, caller.address)
  return { token: await startSession(deps, user.id, caller), isNew }
}

/** Idempotent: an unknown or already revoked token is simply signed out. */
export async function logout(deps: ApiDeps, token: string | undefined): Promise<null> {
  if (token) await revokeSession(deps.db, token, deps.now())
  return null
}
