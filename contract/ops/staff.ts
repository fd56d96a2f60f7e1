import { z } from 'zod'
import { emailField, loginPasswordField, PASSWORD_MAX } from '../accounts'
import { get, noData, noInput, noQuery, post, STAFF_ROLES, type StaffRole } from '../endpoint'
import { pageQuerySchema, pageSchema } from '../envelope'
import { deskAuth } from './desks'
import { STAFF_PASSWORD_MIN } from './staff-rules'

/**
 * Staff: the people who run the operator console and `npm run ops`. Not customers: their own
 * table, their own sign-in (password, then a 6-digit authenticator code, RFC 6238), their own
 * short session (idle 30 minutes, at most 12 hours). A staff token is never a customer token and
 * the reverse (two tables, two headers). Roles: reviewer, payouts, admin (admin can do everything).
 */

export const staffRoleField = z.enum(STAFF_ROLES, { errorMap: () => ({ message: 'role must be reviewer, payouts or admin' }) })

/** An authenticator's 6-digit code (30-second steps). */
export const totpCodeField = z
  .string({ required_error: 'code is required', invalid_type_error: 'code must be text' })
  .trim()
  .regex(/^\d{6}$/, 'code: the 6 digits your authenticator app shows')

/** Opaque one-time tokens (43 characters); anything far longer is not ours. */
const opaqueToken = (name: string) =>
  z
    .string({ required_error: `${name} is required`, invalid_type_error: `${name} must be text` })
    .trim()
    .min(16)
    .max(128)

/** How long each piece lives (the api enforces; the console shows them). */
export const STAFF_SESSION_IDLE_MS = 30 * 60_000
export const STAFF_SESSION_MAX_MS = 12 * 60 * 60_000
export const STAFF_CHALLENGE_MS = 5 * 60_000
export const STAFF_SETUP_MS = 24 * 60 * 60_000
/**
 * Wrong authenticator codes within STAFF_CODE_FAILURE_WINDOW_MS that lock a staff member until an
 * admin resets them; the owner's good sign-in in between does not wipe the count.
 */
export const STAFF_MAX_CODE_FAILURES = 10
export const STAFF_CODE_FAILURE_WINDOW_MS = 24 * 60 * 60_000
export { STAFF_PASSWORD_MIN } from './staff-rules'
export const staffPasswordField = z
  .string({ required_error: 'Password is required', invalid_type_error: 'Password must be text' })
  .min(STAFF_PASSWORD_MIN, `Password must be at least ${STAFF_PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)

export const staffLoginBody = z.object({ email: emailField, password: loginPasswordField }).strict()
/** Step 1 answers a short-lived challenge: proof the password was right, worth nothing alone. */
export const staffChallengeData = z.object({ challenge: z.string(), expiresAt: z.number().int() })

export const staffVerifyBody = z.object({ challenge: opaqueToken('challenge'), code: totpCodeField }).strict()

export const staffMemberSchema = z.object({
  staffId: z.string(),
  email: z.string(),
  role: staffRoleField,
  /** invited: set-up link not yet used; active; disabled. */
  status: z.enum(['invited', 'active', 'disabled']),
  /** Locked by too many wrong codes (until an admin resets them). */
  locked: z.boolean(),
  createdBy: z.string(),
  createdAt: z.number().int(),
  /** An admin account another admin has confirmed (decision 041): only then does it approve. */
  confirmedBy: z.string().nullable().default(null),
})
export type StaffMember = z.infer<typeof staffMemberSchema>

/** Step 2 answers the staff session token: sent as `Authorization: Bearer <token>`. */
export const staffSessionData = z.object({
  token: z.string(),
  /** The absolute end of the session; an idle one ends sooner. */
  expiresAt: z.number().int(),
  staff: staffMemberSchema,
})

/** The set-up link's token (`/ops/setup/<token>`). */
export const setupTokenBody = z.object({ token: opaqueToken('token') }).strict()

/**
 * Opening the set-up link: its authenticator seed (the QR code is `otpauthUri`, the same seed as
 * text in `secret` for typing), made at the first opening and the same at every later one, so a
 * link preview, a prefetch or a reload after a refused attempt never voids the key a person
 * scanned. Whoever holds the link could finish the set-up anyway: the link is the secret, kept
 * out of every log. The seed is never answered again once set-up is complete.
 */
export const setupStartData = z.object({ email: z.string(), role: staffRoleField, otpauthUri: z.string(), secret: z.string() })

export const setupCompleteBody = z
  .object({
    token: opaqueToken('token'),
    password: staffPasswordField,
    code: totpCodeField,
  })
  .strict()

/**
 * Who the api saw on a staff call, sent with every answer of a live staff session (a refusal too):
 * "<role> <e-mail, URI-encoded>". The console draws its frame from its cookie and follows this when
 * it differs (a role or e-mail an admin changed), so a page needs no call of its own for it.
 */
export const STAFF_SEEN_HEADER = 'x-cardlane-staff'
export const staffSeenValue = (staff: { role: string; email: string }) => `${staff.role} ${encodeURIComponent(staff.email)}`
export function staffSeenOf(value: string | null): { role: StaffRole; email: string } | null {
  const [role, email, ...rest] = (value ?? '').split(' ')
  const parsed = staffRoleField.safeParse(role)
  if (!parsed.success || !email || rest.length) return null
  try {
    return { role: parsed.data, email: decodeURIComponent(email) }
  } catch {
    return null
  }
}

export const staffApi = {
  login: post('/staff/login', 'public', staffLoginBody, staffChallengeData),
  verify: post('/staff/verify', 'public', staffVerifyBody, staffSessionData),
  logout: post('/staff/logout', 'staff', noInput, noData),
  me: get('/staff/me', 'staff', noQuery, staffMemberSchema),
  setupStart: post('/staff/setup/start', 'public', setupTokenBody, setupStartData),
  setupComplete: post('/staff/setup/complete', 'public', setupCompleteBody, noData),
}

// ─── Admins manage staff, and read the audit log ───────────────────────────────────────────────

export const inviteStaffBody = z.object({ email: emailField, role: staffRoleField }).strict()
export const staffEmailBody = z.object({ email: emailField }).strict()
export const staffRoleBody = z.object({ email: emailField, role: staffRoleField }).strict()

/** A set-up link's token, answered once to the admin who made it (the CLI prints the link). */
export const setupLinkData = z.object({ staff: staffMemberSchema, setupToken: z.string(), setupExpiresAt: z.number().int() })

const boundedText = (name: string, max: number) =>
  z
    .string({ invalid_type_error: `${name} must be text` })
    .trim()
    .min(1)
    .max(max)

/** The audit log, newest first; every filter optional. `from`/`to` are epoch ms, both included. */
export const auditPageQuery = pageQuerySchema.extend({
  actor: boundedText('actor', 320).optional(),
  action: boundedText('action', 64).optional(),
  targetType: boundedText('targetType', 32).optional(),
  targetId: boundedText('targetId', 64).optional(),
  from: z.coerce.number({ invalid_type_error: 'from: epoch milliseconds' }).int().nonnegative().optional(),
  to: z.coerce.number({ invalid_type_error: 'to: epoch milliseconds' }).int().nonnegative().optional(),
})

export const auditEntrySchema = z.object({
  id: z.string(),
  actor: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.number().int(),
})

export const staffDeskApi = {
  /** 'automation': ADMIN_TOKEN may make the first admin (`npm run ops -- staff add`). */
  invite: post('/admin/staff/invite', 'automation', inviteStaffBody, setupLinkData),
  list: get('/admin/staff/list', 'automation', noQuery, z.array(staffMemberSchema)),
  role: post('/admin/staff/role', deskAuth('staff'), staffRoleBody, staffMemberSchema),
  /** Break-glass too: a stolen admin's account can be closed with ADMIN_TOKEN. */
  disable: post('/admin/staff/disable', 'automation', staffEmailBody, staffMemberSchema),
  /** New password and authenticator: clears the lock, ends every session, answers a new set-up link. */
  reset: post('/admin/staff/reset', 'automation', staffEmailBody, setupLinkData),
  audit: get('/admin/audit/page', deskAuth('audit'), auditPageQuery, pageSchema(auditEntrySchema)),
  /** Another admin vouches for a new admin account (not its inviter, resetter or promoter); audited. */
  confirm: post('/admin/staff/confirm', deskAuth('staff'), staffEmailBody, staffMemberSchema),
}
