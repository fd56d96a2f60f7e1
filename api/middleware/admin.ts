import { timingSafeEqual, createHash } from 'node:crypto'
import type { Request } from 'express'
import { Code } from '#contract/envelope'
import type { ApiDeps } from '../deps'
import { ApiError } from '../lib/envelope'
import { msg } from '../lib/messages'

const digest = (s: string) => createHash('sha256').update(s).digest()

/**
 * Operators: `Authorization: Bearer $ADMIN_TOKEN`. Without the setting /admin does not exist
 * (404, as any unknown path); a wrong token is 403. Answers who acts, for the audit log:
 * `X-Operator` (the ops CLI sends the operator's name) or "admin".
 */
export function requireAdmin(deps: ApiDeps, req: Request): string {
  const expected = deps.config.adminToken
  if (!expected) throw new ApiError(404, Code.NOT_FOUND, msg.notFound)
  const presented = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? ''
  // Compare digests: equal length, constant time, whatever was sent.
  if (!timingSafeEqual(digest(presented), digest(expected))) throw new ApiError(403, Code.FORBIDDEN, msg.forbidden)
  const name = req.get('x-operator')?.trim() ?? ''
  return /^[\w.@-]{1,64}$/.test(name) ? `operator:${name}` : 'admin'
}
