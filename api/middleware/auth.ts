import type { Request } from 'express'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { unauthorized } from '../lib/envelope'
import { findSessionUser } from '../models/sessions'

/** Our tokens are 43 characters; anything far longer is not one of ours and is not worth hashing. */
const MAX_TOKEN_LENGTH = 256

/** The `token` header (SPEC §7), if it looks like a token at all. */
export function presentedToken(req: Request): string | undefined {
  const token = req.get('token')?.trim()
  return token && token.length <= MAX_TOKEN_LENGTH ? token : undefined
}

/** The signed-in user, or undefined for anonymous, expired, revoked or unknown tokens. */
export async function currentUser(deps: ApiDeps, req: Request): Promise<User | undefined> {
  const token = presentedToken(req)
  return token ? findSessionUser(deps.db, token, deps.now()) : undefined
}

/** The signed-in user, or the HTTP 401 "Login expired, please login again" refusal. */
export async function requireUser(deps: ApiDeps, req: Request): Promise<User> {
  const user = await currentUser(deps, req)
  if (!user) throw unauthorized()
  return user
}
