import { createHash, timingSafeEqual } from 'node:crypto'
import type { Request } from 'express'
import type { StaffAuth, StaffRole } from '#contract/endpoint'
import { Code } from '#contract/envelope'
import { roleAllows } from '#contract/ops/desks'
import { STAFF_SEEN_HEADER, STAFF_SESSION_IDLE_MS, staffSeenValue } from '#contract/ops/staff'
import type { StaffRow } from '../db/schema'
import type { ApiDeps } from '../deps'
import { ApiError, unauthorized } from '../lib/envelope'
import { msg } from '../lib/messages'
import { audit } from '../models/audit-log'
import { touchStaffSession } from '../models/ops/staff'

const digest = (s: string) => createHash('sha256').update(s).digest()

/** Our tokens are 43 characters (ADMIN_TOKEN at least 32); anything far longer is neither. */
const MAX_BEARER_LENGTH = 512

/** The `Authorization: Bearer` token, or ''. */
export const bearerOf = (req: Request) => /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1] ?? ''

/** Who acts on an /admin call: a signed-in staff member, or the break-glass ADMIN_TOKEN. */
export type StaffCaller = { actor: string; staff: StaffRow | undefined }

/** The audit log's name of a staff member. */
export const staffActor = (staff: Pick<StaffRow, 'email'>) => `staff:${staff.email}`
export const ADMIN_TOKEN_ACTOR = 'admin-token'

export const adminTokenOnly = () =>
  new ApiError(
    403,
    Code.FORBIDDEN,
    'ADMIN_TOKEN is only for automation and break-glass. Sign in as a staff member: npm run ops -- login EMAIL',
  )

/**
 * Operators' calls: `Authorization: Bearer <token>`. The token is either the break-glass
 * ADMIN_TOKEN (constant-time compare; accepted only for 'automation' records, and every use is
 * audited as `admin-token`) or a staff session (idle 30 minutes, at most 12 hours, its staff member
 * active and not locked), whose role must allow the record. No token or a dead one: 401; a live
 * one without the role: 403. A customer's token is never looked up here (another table).
 */
export async function requireStaff(deps: ApiDeps, req: Request, auth: StaffAuth): Promise<StaffCaller> {
  const presented = bearerOf(req)
  if (!presented || presented.length > MAX_BEARER_LENGTH) throw unauthorized()
  const expected = deps.config.adminToken
  if (expected && timingSafeEqual(digest(presented), digest(expected))) {
    if (auth !== 'automation') throw adminTokenOnly()
    const now = deps.now()
    await audit(
      deps.db,
      {
        actor: ADMIN_TOKEN_ACTOR,
        action: 'admin-token.call',
        targetType: 'call',
        targetId: `${req.method} ${req.path}`,
        before: null,
        after: null,
      },
      now,
    )
    return { actor: ADMIN_TOKEN_ACTOR, staff: undefined }
  }
  const staff = await touchStaffSession(deps.db, presented, deps.now(), STAFF_SESSION_IDLE_MS)
  if (!staff) throw unauthorized()
  req.res?.setHeader(STAFF_SEEN_HEADER, staffSeenValue(staff))
  const needed: StaffRole | undefined =
    auth === 'automation' ? 'admin' : auth === 'staff' ? undefined : (auth.slice('staff:'.length) as StaffRole)
  if (needed && !roleAllows(staff.role, needed)) throw new ApiError(403, Code.FORBIDDEN, msg.forbidden)
  return { actor: staffActor(staff), staff }
}
