import type { StaffRole } from '#contract/endpoint'
import {
  STAFF_CHALLENGE_MS,
  STAFF_CODE_FAILURE_WINDOW_MS,
  STAFF_MAX_CODE_FAILURES,
  STAFF_SESSION_MAX_MS,
  STAFF_SETUP_MS,
  type StaffMember,
} from '#contract/ops/staff'
import type { Refusal } from '#contract/refusals'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../../db/connect'
import type { StaffRow } from '../../db/schema'
import { writeTransaction } from '../../db/transaction'
import { isCommonPassword } from '../../lib/common-passwords'
import { refuse } from '../../lib/envelope'
import type { SellingDeps } from '../../lib/selling-deps'
import { newTotpSeed, totpStep, totpUri } from '../../lib/totp'
import { staffActor, type StaffCaller } from '../../middleware/staff'
import { audit, pageAudit } from '../../models/audit-log'
import * as staffModel from '../../models/ops/staff'
import { hitRateLimit, resetRateLimit } from '../../models/rate-limits'
import { confirmProblem, lapseRequestsOf } from './maker-checker'

/**
 * Staff identities (contract/ops/staff.ts): sign-in in two steps (password → challenge; challenge +
 * authenticator code → session), the one-time set-up link, and what admins do to staff. Seeds
 * are sealed with CODES_KEY (bound to the staff id) and never logged or answered after set-up;
 * passwords are argon2id through the hash gate.
 */

const seedContext = (staffId: string) => `staff-totp:${staffId}`
/** Wrong codes of one staff member, counted over a window (rate_limits) that a good sign-in does not end. */
const codeFailuresKey = (staffId: string) => `staff:code-fail:${staffId}`

export const toStaffMember = (s: StaffRow): StaffMember => ({
  staffId: s.id,
  email: s.email,
  role: s.role as StaffRole,
  status: s.status as StaffMember['status'],
  locked: s.locked_at !== null,
  createdBy: s.created_by,
  createdAt: Number(s.created_at),
  confirmedBy: s.confirmed_by,
})

// ─── Sign-in ────────────────────────────────────────────────────────────────────────────────────

export async function login(deps: SellingDeps, body: { email: string; password: string }) {
  const staff = await staffModel.findStaffByEmail(deps.db, body.email)
  // Unknown, not set up and disabled staff cost a full hash too, and get the same answer.
  const ok = staff?.password_hash
    ? await deps.hasher.verify(body.password, staff.password_hash)
    : await deps.hasher.verifyDummy(body.password)
  if (!ok || !staff || staff.status !== 'active') throw refuse(Refusals.STAFF_BAD_CREDENTIALS)
  if (staff.locked_at !== null) throw refuse(Refusals.STAFF_LOCKED)
  const now = deps.now()
  const challenge = await staffModel.issueStaffToken(deps.db, staff.id, 'challenge', now, STAFF_CHALLENGE_MS)
  return { challenge, expiresAt: now + STAFF_CHALLENGE_MS }
}

type Outcome<T> = { refusal: Refusal } | { ok: T }

/**
 * The second step, in one write transaction with the staff row locked, so parallel guesses are
 * counted one after the other and the tenth wrong one within the window locks, however many good
 * sign-ins came between (a stranger's guesses are not forgiven by the owner's next code). A refusal is returned, not thrown,
 * so the failure count it wrote is kept.
 */
export async function verify(deps: SellingDeps, body: { challenge: string; code: string }) {
  const now = deps.now()
  const outcome: Outcome<{ staff: StaffRow; token: string; expiresAt: number }> = await writeTransaction(
    deps.db,
    deps.dbKind,
    async (trx) => {
      const staffId = await staffModel.findStaffToken(trx, body.challenge, 'challenge', now)
      const staff = staffId ? await staffModel.lockStaff(trx, deps.dbKind, staffId) : undefined
      if (!staff || staff.status !== 'active' || !staff.totp_cipher) return { refusal: Refusals.STAFF_CHALLENGE_EXPIRED }
      if (staff.locked_at !== null) return { refusal: Refusals.STAFF_LOCKED }
      const step = totpStep(deps.codes.open(staff.totp_cipher, seedContext(staff.id)), body.code, now)
      if (step === null) {
        const { hits: failures } = await hitRateLimit(trx, codeFailuresKey(staff.id), STAFF_CODE_FAILURE_WINDOW_MS, now)
        const locked = failures >= STAFF_MAX_CODE_FAILURES
        await staffModel.updateStaff(trx, staff.id, { totp_failures: failures, ...(locked && { locked_at: now }) }, now)
        if (!locked) return { refusal: Refusals.STAFF_BAD_CODE }
        await staffModel.revokeStaffSessions(trx, staff.id, now)
        await staffModel.burnStaffTokens(trx, staff.id, now)
        // A locked maker's waiting requests lapse now, not when someone next tries to approve them.
        await lapseRequestsOf(trx, staff, 'locked', now)
        await audit(
          trx,
          { actor: staffActor(staff), action: 'staff.locked', targetType: 'staff', targetId: staff.id, before: null, after: { failures } },
          now,
        )
        return { refusal: Refusals.STAFF_LOCKED }
      }
      if (!(await staffModel.claimTotpStep(trx, staff.id, step, now))) return { refusal: Refusals.STAFF_CODE_USED }
      if (!(await staffModel.useStaffToken(trx, body.challenge, now))) return { refusal: Refusals.STAFF_CHALLENGE_EXPIRED }
      const session = await staffModel.createStaffSession(trx, staff.id, now, STAFF_SESSION_MAX_MS)
      await audit(
        trx,
        { actor: staffActor(staff), action: 'staff.signin', targetType: 'staff', targetId: staff.id, before: null, after: null },
        now,
      )
      return { ok: { staff, ...session } }
    },
  )
  if ('refusal' in outcome) throw refuse(outcome.refusal)
  const { staff, token, expiresAt } = outcome.ok
  return { token, expiresAt, staff: toStaffMember(staff) }
}

export const logout = (deps: SellingDeps, token: string) => staffModel.revokeStaffSession(deps.db, token, deps.now())

// ─── Set-up link ────────────────────────────────────────────────────────────────────────────────

async function invitedBySetupToken(deps: SellingDeps, token: string, now: number): Promise<StaffRow> {
  const staffId = await staffModel.findStaffToken(deps.db, token, 'setup', now)
  const staff = staffId ? await staffModel.findStaffById(deps.db, staffId) : undefined
  if (!staff || staff.status !== 'invited') throw refuse(Refusals.STAFF_SETUP_INVALID)
  return staff
}

/**
 * The link's authenticator key: made at the first opening and the same at every opening after
 * (a link preview, a prefetch, a reload after a refused attempt), so the key a person scanned
 * stays the one that counts. A new key only comes with a new link (an admin's reset).
 */
export async function setupStart(deps: SellingDeps, body: { token: string }) {
  const now = deps.now()
  const staff = await invitedBySetupToken(deps, body.token, now)
  if (!staff.totp_pending_cipher) {
    // Only where none is pending: of two first openings at once, the later keeps the earlier's key.
    await staffModel.setPendingSeedIfNone(deps.db, staff.id, deps.codes.seal(newTotpSeed(), seedContext(staff.id)), now)
  }
  const pending = (await staffModel.findStaffById(deps.db, staff.id))?.totp_pending_cipher
  if (!pending) throw refuse(Refusals.STAFF_SETUP_INVALID)
  const seed = deps.codes.open(pending, seedContext(staff.id))
  return { email: staff.email, role: staff.role as StaffRole, otpauthUri: totpUri(seed, staff.email, deps.config.brandName), secret: seed }
}

export async function setupComplete(deps: SellingDeps, body: { token: string; password: string; code: string }) {
  const now = deps.now()
  const staff = await invitedBySetupToken(deps, body.token, now)
  if (!staff.totp_pending_cipher) throw refuse(Refusals.STAFF_SETUP_NOT_STARTED)
  const step = totpStep(deps.codes.open(staff.totp_pending_cipher, seedContext(staff.id)), body.code, now)
  if (step === null) throw refuse(Refusals.STAFF_BAD_CODE)
  if (isCommonPassword(body.password)) throw refuse(Refusals.WEAK_PASSWORD)
  // The slow hash runs before the write transaction, which must not hold SQLite's write lock that long.
  const passwordHash = await deps.hasher.hash(body.password)
  const refusal = await writeTransaction(deps.db, deps.dbKind, async (trx): Promise<Refusal | undefined> => {
    const current = await staffModel.lockStaff(trx, deps.dbKind, staff.id)
    // The link was opened again meanwhile (a new seed), reset, or used by a twin request.
    if (!current || current.status !== 'invited' || current.totp_pending_cipher !== staff.totp_pending_cipher)
      return Refusals.STAFF_SETUP_INVALID
    if (!(await staffModel.useStaffToken(trx, body.token, now))) return Refusals.STAFF_SETUP_INVALID
    await staffModel.updateStaff(
      trx,
      staff.id,
      {
        status: 'active',
        password_hash: passwordHash,
        totp_cipher: current.totp_pending_cipher,
        totp_pending_cipher: null,
        totp_last_step: step,
        totp_failures: 0,
        locked_at: null,
        activated_at: now,
      },
      now,
    )
    await audit(
      trx,
      { actor: staffActor(staff), action: 'staff.setup', targetType: 'staff', targetId: staff.id, before: null, after: null },
      now,
    )
    return undefined
  })
  if (refusal) throw refuse(refusal)
  return null
}

// ─── Admins manage staff ────────────────────────────────────────────────────────────────────────

async function target(deps: SellingDeps, caller: StaffCaller, email: string): Promise<StaffRow> {
  const staff = await staffModel.findStaffByEmail(deps.db, email)
  if (!staff) throw refuse(Refusals.STAFF_NOT_FOUND)
  if (caller.staff?.id === staff.id) throw refuse(Refusals.STAFF_SELF)
  return staff
}

export async function invite(deps: SellingDeps, caller: StaffCaller, body: { email: string; role: StaffRole }) {
  const now = deps.now()
  try {
    return await writeTransaction(deps.db, deps.dbKind, async (trx) => {
      if (await staffModel.findStaffByEmail(trx, body.email)) throw refuse(Refusals.STAFF_EXISTS)
      const staff = await staffModel.insertStaff(trx, { email: body.email, role: body.role, createdBy: caller.actor }, now)
      const setupToken = await staffModel.issueStaffToken(trx, staff.id, 'setup', now, STAFF_SETUP_MS)
      await audit(
        trx,
        { actor: caller.actor, action: 'staff.invite', targetType: 'staff', targetId: staff.id, before: null, after: toStaffMember(staff) },
        now,
      )
      return { staff: toStaffMember(staff), setupToken, setupExpiresAt: now + STAFF_SETUP_MS }
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw refuse(Refusals.STAFF_EXISTS)
    throw err
  }
}

export const listStaff = async (deps: SellingDeps) => (await staffModel.listStaff(deps.db)).map(toStaffMember)

export async function changeRole(deps: SellingDeps, caller: StaffCaller, body: { email: string; role: StaffRole }) {
  const staff = await target(deps, caller, body.email)
  const now = deps.now()
  // Made admin, or no longer admin: a confirmation is for one grant of the role (decision 041).
  const roleChanged = (staff.role === 'admin') !== (body.role === 'admin')
  const patch = roleChanged
    ? { role: body.role, confirmed_by: null, confirmed_at: null, ...(body.role === 'admin' && { promoted_by: caller.actor }) }
    : { role: body.role }
  const after = { ...staff, ...patch }
  await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    await staffModel.updateStaff(trx, staff.id, patch, now)
    if (staff.role === 'admin' && body.role !== 'admin') await lapseRequestsOf(trx, staff, 'demoted', now)
    await audit(
      trx,
      {
        actor: caller.actor,
        action: 'staff.role',
        targetType: 'staff',
        targetId: staff.id,
        before: toStaffMember(staff),
        after: toStaffMember(after),
      },
      now,
    )
  })
  return toStaffMember(after)
}

/** Disabled: every session and open link ends now; the account stays for the audit log. */
export async function disable(deps: SellingDeps, caller: StaffCaller, body: { email: string }) {
  const staff = await target(deps, caller, body.email)
  const now = deps.now()
  const after = { ...staff, status: 'disabled' }
  await writeTransaction(deps.db, deps.dbKind, async (trx) => {
    await staffModel.updateStaff(trx, staff.id, { status: 'disabled' }, now)
    await lapseRequestsOf(trx, staff, 'disabled', now)
    await staffModel.revokeStaffSessions(trx, staff.id, now)
    await staffModel.burnStaffTokens(trx, staff.id, now)
    await audit(
      trx,
      {
        actor: caller.actor,
        action: 'staff.disable',
        targetType: 'staff',
        targetId: staff.id,
        before: toStaffMember(staff),
        after: toStaffMember(after),
      },
      now,
    )
  })
  return toStaffMember(after)
}

/** A new start: password and authenticator forgotten, the lock lifted, a new set-up link. */
export async function reset(deps: SellingDeps, caller: StaffCaller, body: { email: string }) {
  const staff = await target(deps, caller, body.email)
  const now = deps.now()
  const after: StaffRow = {
    ...staff,
    status: 'invited',
    password_hash: null,
    totp_cipher: null,
    totp_pending_cipher: null,
    totp_failures: 0,
    locked_at: null,
    // The resetter is handed the new set-up link: the account must be confirmed again, not by them.
    setup_by: caller.actor,
    confirmed_by: null,
    confirmed_at: null,
  }
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    const { id: _id, email: _email, created_at: _c, created_by: _b, ...patch } = after
    await staffModel.updateStaff(trx, staff.id, patch, now)
    await lapseRequestsOf(trx, staff, 'reset', now)
    await staffModel.revokeStaffSessions(trx, staff.id, now)
    await staffModel.burnStaffTokens(trx, staff.id, now)
    await resetRateLimit(trx, codeFailuresKey(staff.id))
    const setupToken = await staffModel.issueStaffToken(trx, staff.id, 'setup', now, STAFF_SETUP_MS)
    await audit(
      trx,
      {
        actor: caller.actor,
        action: 'staff.reset',
        targetType: 'staff',
        targetId: staff.id,
        before: toStaffMember(staff),
        after: toStaffMember(after),
      },
      now,
    )
    return { staff: toStaffMember(after), setupToken, setupExpiresAt: now + STAFF_SETUP_MS }
  })
}

/**
 * Another admin vouches for a new admin account (decision 041): until then it approves nothing.
 * Not its inviter, resetter or promoter; and only a confirmed admin, but while none is, the admins
 * added with ADMIN_TOKEN confirm each other.
 */
export async function confirm(deps: SellingDeps, caller: StaffCaller, body: { email: string }) {
  const now = deps.now()
  const by = caller.staff
  if (!by) throw refuse(Refusals.STAFF_CONFIRM_UNCONFIRMED)
  const staff = await target(deps, caller, body.email)
  const outcome = await writeTransaction(deps.db, deps.dbKind, async (trx): Promise<Outcome<StaffRow>> => {
    const current = await staffModel.lockStaff(trx, deps.dbKind, staff.id)
    if (!current) return { refusal: Refusals.STAFF_NOT_FOUND }
    const problem = confirmProblem(by, current, await staffModel.anyConfirmedAdmin(trx))
    if (problem) return { refusal: problem }
    if (!(await staffModel.confirmStaff(trx, current.id, caller.actor, now))) return { refusal: Refusals.STAFF_NOT_CONFIRMABLE }
    const after = { ...current, confirmed_by: caller.actor, confirmed_at: now }
    await audit(
      trx,
      {
        actor: caller.actor,
        action: 'staff.confirm',
        targetType: 'staff',
        targetId: current.id,
        before: toStaffMember(current),
        after: toStaffMember(after),
      },
      now,
    )
    return { ok: after }
  })
  if ('refusal' in outcome) throw refuse(outcome.refusal)
  return toStaffMember(outcome.ok)
}

export async function auditLog(
  deps: SellingDeps,
  q: {
    pageNum: number
    pageSize: number
    actor?: string
    action?: string
    targetType?: string
    targetId?: string
    from?: number
    to?: number
  },
) {
  const { rows, total } = await pageAudit(deps.db, q, q.pageNum, q.pageSize)
  const parse = (json: string | null) => (json === null ? null : (JSON.parse(json) as unknown))
  return {
    list: rows.map((r) => ({
      id: r.id,
      actor: r.actor,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: parse(r.before_json),
      after: parse(r.after_json),
      at: Number(r.created_at),
    })),
    total,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
  }
}
