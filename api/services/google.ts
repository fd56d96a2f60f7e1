import { randomInt } from 'node:crypto'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { emailField, type BindAccountData } from '#contract/accounts'
import { isAvatarAddress, userNameField, NICKNAME_MAX } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../db/connect'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { createUser, findUserByEmail, findUserByGoogleSub, linkGoogleSub } from '../models/users'

export type GoogleIdentity = { sub: string; email: string; name?: string; picture?: string }
export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity>

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com']

/**
 * A genuine id_token (signature, audience, issuer and expiry all checked) whose e-mail Google has
 * not verified. Sign-in refuses it like any bad token; linking says why.
 */
export class GoogleEmailUnverified extends Error {
  constructor() {
    super('email not verified')
    this.name = 'GoogleEmailUnverified'
  }
}

/**
 * Checks a Google id_token offline against Google's published keys (or, in tests, a local key
 * set: the JWKS URL is a setting). jose caches the keys and refetches on an unknown key id.
 * Throws on any failure; the caller turns that into BAD_ID_TOKEN.
 */
export function createGoogleVerifier(opts: { clientIds: string[]; jwksUrl: string; now: () => number }): GoogleVerifier {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl))
  return async (idToken) => {
    if (opts.clientIds.length === 0) throw new Error('GOOGLE_CLIENT_ID is not set')
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: GOOGLE_ISSUERS,
      audience: opts.clientIds,
      algorithms: ['RS256'],
      currentDate: new Date(opts.now()),
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    if (payload.email_verified !== true && payload.email_verified !== 'true') throw new GoogleEmailUnverified()
    const email = emailField.safeParse(payload.email)
    if (!email.success) throw new Error('no usable email claim')
    if (typeof payload.sub !== 'string' || !payload.sub || payload.sub.length > 255) throw new Error('bad sub claim')
    return {
      sub: payload.sub,
      email: email.data,
      name: typeof payload.name === 'string' ? payload.name : undefined,
      picture: typeof payload.picture === 'string' ? payload.picture : undefined,
    }
  }
}

/**
 * The name a new account starts with: Google's profile name when there is one, else a neutral
 * "Seller 4821". Never the e-mail's local part: the name is shown on trades, and half an address
 * is a good start for a phishing mail.
 */
export function defaultUserName(_email: string, name?: string): string {
  const cleaned = (name ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f<>]/g, '')
    .trim()
    .slice(0, NICKNAME_MAX)
    .trim()
  const ok = userNameField.safeParse(cleaned)
  if (cleaned && ok.success) return ok.data
  return `Seller ${randomInt(1000, 10000)}`
}

const usablePicture = (p?: string) => (p && p.startsWith('https://') && p.length <= 2048 && isAvatarAddress(p) ? p : null)

/**
 * Signs in with a verified Google identity: the user already linked to this Google account, else
 * the user with the same (Google-verified) e-mail, now linked, else a new user.
 */
export async function signInWithGoogle(
  deps: ApiDeps,
  id: GoogleIdentity,
  signupAddress: string | null = null,
): Promise<{ user: User; isNew: boolean }> {
  const { db } = deps
  for (let attempt = 0; attempt < 2; attempt++) {
    const linked = await findUserByGoogleSub(db, id.sub)
    if (linked) {
      // Keep the e-mail Account shows in step with Google's (it may have changed since the link).
      if (linked.google_email !== id.email) await linkGoogleSub(db, linked.id, id.sub, deps.now(), id.email)
      return { user: { ...linked, google_email: id.email }, isNew: false }
    }

    const byEmail = await findUserByEmail(db, id.email)
    if (byEmail) {
      if (byEmail.google_sub && byEmail.google_sub !== id.sub) {
        throw refuse(Refusals.ACCOUNT_ALREADY_BOUND)
      }
      if (byEmail.google_sub === id.sub || (await linkOrRetry(deps, byEmail.id, id))) {
        return { user: { ...byEmail, google_sub: id.sub, google_email: id.email }, isNew: false }
      }
      continue // linked by a parallel request meanwhile: look again
    }

    try {
      const user = await createUser(
        db,
        {
          email: id.email,
          user_name: defaultUserName(id.email, id.name),
          head_img: usablePicture(id.picture),
          google_sub: id.sub,
          google_email: id.email,
          signup_address: signupAddress,
        },
        deps.now(),
      )
      return { user, isNew: true }
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      // A parallel sign-in created it first: the next round finds it.
    }
  }
  throw refuse(Refusals.BAD_ID_TOKEN)
}

/** Links by `sub`; a parallel sign-in that linked this `sub` elsewhere first makes it "look again". */
async function linkOrRetry(deps: ApiDeps, userId: string, id: GoogleIdentity): Promise<boolean> {
  try {
    return await linkGoogleSub(deps.db, userId, id.sub, deps.now(), id.email)
  } catch (err) {
    if (isUniqueViolation(err)) return false
    throw err
  }
}

/**
 * bindAccount (provider google): links the Google account of a verified id_token to the signed-in
 * person. The token is checked exactly as at sign-in (deps.google: signature against the JWKS
 * setting, audience, issuer, expiry, a Google-verified e-mail). The link is Google's `sub`, never
 * the e-mail. Linking the same Google account again is fine (its e-mail is refreshed); one already
 * linked to someone else, or a second Google account, is refused and nothing changes.
 */
export async function bindGoogle(deps: ApiDeps, user: User, idToken: string): Promise<BindAccountData> {
  let identity: GoogleIdentity
  try {
    identity = await deps.google(idToken)
  } catch (err) {
    if (err instanceof GoogleEmailUnverified) throw refuse(Refusals.GOOGLE_EMAIL_UNVERIFIED)
    // As at sign-in: the reason helps operators; the token is never logged.
    deps.logger.warn({ reason: (err as Error)?.message, jose: (err as { code?: string })?.code }, 'google id_token refused')
    throw refuse(Refusals.BAD_ID_TOKEN)
  }
  if (user.google_sub && user.google_sub !== identity.sub) throw refuse(Refusals.GOOGLE_ALREADY_LINKED)
  const holder = await findUserByGoogleSub(deps.db, identity.sub)
  if (holder && holder.id !== user.id) throw refuse(Refusals.GOOGLE_LINKED_ELSEWHERE)
  let linked: boolean
  try {
    linked = await linkGoogleSub(deps.db, user.id, identity.sub, deps.now(), identity.email)
  } catch (err) {
    // Linked (or signed up) elsewhere by a parallel request since the look above.
    if (isUniqueViolation(err)) throw refuse(Refusals.GOOGLE_LINKED_ELSEWHERE)
    throw err
  }
  // A parallel request linked another Google account to this person meanwhile.
  if (!linked) throw refuse(Refusals.GOOGLE_ALREADY_LINKED)
  deps.logger.info({ userId: user.id }, 'google account linked')
  return { provider: 'google', email: identity.email }
}
