import { Router, type Request } from 'express'
import {
  checkEmailCodeBody,
  CodeType,
  googleBody,
  type GoogleNewData,
  loginBody,
  loginByCodeBody,
  logoutBody,
  registerBody,
  resetPasswordBody,
  sendEmailCodeBody,
  type CodeType as CodeTypeValue,
} from '#contract/auth'
import { Code } from '#contract/envelope'
import { isUniqueViolation } from '../db/connect'
import type { ApiDeps } from '../deps'
import { isCommonPassword } from '../lib/commonPasswords'
import { handle, refuse } from '../lib/envelope'
import { msg } from '../lib/messages'
import { parseInput } from '../lib/validate'
import { presentedToken, requireUser } from '../middleware/auth'
import { loginFailLimiter } from '../middleware/rateLimit'
import { createSession, revokeSession, revokeUserSessions } from '../models/sessions'
import { createUser, findUserByEmail, setPasswordHash } from '../models/users'
import { defaultUserName, signInWithGoogle } from '../services/google'
import { checkVerifyCode, sendVerifyCode, useVerifyCode } from '../services/verifyCodes'

/** Codes that go to the signed-in user's own address rather than the one in the body. */
const SIGNED_IN_TYPES: readonly number[] = [CodeType.RESET_PIN, CodeType.DELETE_ACCOUNT]

/** SPEC §7 and DESIGN §3: /auth/* — sign-in, registration, codes, password reset, Google, logout. */
export function authRoutes(deps: ApiDeps): Router {
  const r = Router()
  const { db } = deps
  const ttlMs = deps.config.tokenTtlDays * 86_400_000
  const startSession = (userId: string) => createSession(db, userId, deps.now(), ttlMs)

  const refuseCommonPassword = (password: string) => {
    if (isCommonPassword(password)) throw refuse(Code.WEAK_PASSWORD, msg.weakPassword)
  }

  /** For types 4/5 the code belongs to the signed-in user; for the others to the body's address. */
  const codeAddress = async (req: Request, email: string, type: CodeTypeValue) =>
    SIGNED_IN_TYPES.includes(type) ? (await requireUser(deps, req)).email : email

  r.post(
    '/auth/login',
    loginFailLimiter(deps),
    handle(async (req) => {
      const { email, password } = parseInput(loginBody, req.body)
      const user = await findUserByEmail(db, email)
      // No account, or a Google-only one: spend the same time as a wrong password, answer the same.
      const { hasher } = deps
      const ok = user?.password_hash ? await hasher.verify(password, user.password_hash) : await hasher.verifyDummy(password)
      if (!user || !ok) throw refuse(Code.BAD_CREDENTIALS, msg.badCredentials)
      return startSession(user.id)
    }),
  )

  r.post(
    '/auth/register',
    handle(async (req) => {
      const { email, password, verifyCode } = parseInput(registerBody, req.body)
      refuseCommonPassword(password)
      // The code first: only its owner learns whether the address is taken.
      await useVerifyCode(deps, email, CodeType.REGISTER, verifyCode)
      const passwordHash = await deps.hasher.hash(password)
      try {
        const user = await createUser(
          db,
          { email, password_hash: passwordHash, user_name: defaultUserName(email) },
          deps.now(),
        )
        return startSession(user.id)
      } catch (err) {
        if (isUniqueViolation(err)) throw refuse(Code.EMAIL_TAKEN, msg.emailTaken)
        throw err
      }
    }),
  )

  r.post(
    '/auth/sendEmailCode',
    handle(async (req) => {
      const { email, type: t } = parseInput(sendEmailCodeBody, req.body)
      const type = t as CodeTypeValue // the schema allows 1–5 only
      await sendVerifyCode(deps, await codeAddress(req, email, type), type)
      return null
    }),
  )

  r.post(
    '/auth/checkEmailCode',
    handle(async (req) => {
      const { email, type: t, verifyCode } = parseInput(checkEmailCodeBody, req.body)
      const type = t as CodeTypeValue // the schema allows 1–5 only
      const address = await codeAddress(req, email, type)
      if (!(await checkVerifyCode(deps, address, type, verifyCode, { consume: false }))) {
        throw refuse(Code.BAD_VERIFY_CODE, msg.badVerifyCode)
      }
      return null
    }),
  )

  r.post(
    '/auth/resetPassword',
    handle(async (req) => {
      const { email, password, verifyCode } = parseInput(resetPasswordBody, req.body)
      refuseCommonPassword(password)
      await useVerifyCode(deps, email, CodeType.RESET_PASSWORD, verifyCode)
      const user = await findUserByEmail(db, email)
      if (!user) throw refuse(Code.BAD_VERIFY_CODE, msg.badVerifyCode)
      await setPasswordHash(db, user.id, await deps.hasher.hash(password), deps.now())
      // Whoever knew the old password is signed out everywhere.
      await revokeUserSessions(db, user.id, deps.now())
      return null
    }),
  )

  r.post(
    '/auth/loginByCode',
    handle(async (req) => {
      const { email, verifyCode } = parseInput(loginByCodeBody, req.body)
      await useVerifyCode(deps, email, CodeType.LOGIN, verifyCode)
      const user = await findUserByEmail(db, email)
      if (!user) throw refuse(Code.BAD_VERIFY_CODE, msg.badVerifyCode)
      return startSession(user.id)
    }),
  )

  const googleSignIn = async (idToken: string) => {
    let identity
    try {
      identity = await deps.google(idToken)
    } catch (err) {
      // The reason helps operators (wrong audience, expired, keys unreachable); the token is not logged.
      deps.logger.warn({ reason: (err as Error)?.message, jose: (err as { code?: string })?.code }, 'google id_token refused')
      throw refuse(Code.BAD_ID_TOKEN, msg.badIdToken)
    }
    const { user, isNew } = await signInWithGoogle(deps, identity)
    return { token: await startSession(user.id), isNew }
  }

  r.post(
    '/auth/google',
    handle(async (req) => {
      const { id_token } = parseInput(googleBody, req.body)
      return (await googleSignIn(id_token)).token
    }),
  )

  r.post(
    '/auth/googleNew',
    handle(async (req): Promise<GoogleNewData> => {
      const { id_token } = parseInput(googleBody, req.body)
      return googleSignIn(id_token)
    }),
  )

  r.post(
    '/auth/logout',
    handle(async (req) => {
      parseInput(logoutBody, req.body ?? {})
      // Idempotent: an unknown or already revoked token is simply signed out.
      const token = presentedToken(req)
      if (token) await revokeSession(db, token, deps.now())
      return null
    }),
  )

  return r
}
