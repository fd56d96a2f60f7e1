import type { Updateable } from 'kysely'
import type { Db, DbKind } from '../../db/connect'
import type { StaffRow, StaffTable } from '../../db/schema'
import { hashToken, newId, newToken } from '../../lib/tokens'

/** Staff, their sessions and one-time tokens: every query of staff, staff_sessions, staff_tokens. */

export const findStaffByEmail = (db: Db, email: string): Promise<StaffRow | undefined> =>
  db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirst()

export const findStaffById = (db: Db, id: string): Promise<StaffRow | undefined> =>
  db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst()

/** The row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const lockStaff = (db: Db, kind: DbKind, id: string): Promise<StaffRow | undefined> =>
  db
    .selectFrom('staff')
    .selectAll()
    .where('id', '=', id)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

export const listStaff = (db: Db): Promise<StaffRow[]> =>
  db.selectFrom('staff').selectAll().orderBy('created_at').orderBy('email').execute()

export async function insertStaff(db: Db, s: { email: string; role: string; createdBy: string }, now: number): Promise<StaffRow> {
  const row: StaffRow = {
    id: newId(),
    email: s.email,
    role: s.role,
    status: 'invited',
    password_hash: null,
    totp_cipher: null,
    totp_pending_cipher: null,
    totp_last_step: null,
    totp_failures: 0,
    locked_at: null,
    created_by: s.createdBy,
    created_at: now,
    updated_at: now,
    setup_by: s.createdBy,
    promoted_by: null,
    activated_at: null,
    confirmed_by: null,
    confirmed_at: null,
  }
  await db.insertInto('staff').values(row).execute()
  return row
}

export async function updateStaff(db: Db, id: string, patch: Updateable<StaffTable>, now: number): Promise<void> {
  await db
    .updateTable('staff')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute()
}

/**
 * Accepts a code's 30-second step only when it is newer than the last accepted one: of two
 * requests with the same code (a replay, or a double submit), exactly one wins. Wrong codes are
 * not forgiven here: they count over a window (services/staff.ts).
 */
export async function claimTotpStep(db: Db, id: string, step: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('staff')
    .set({ totp_last_step: step, updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Confirms an admin account once: false when it was confirmed already (a twin request won). */
export async function confirmStaff(db: Db, id: string, by: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('staff')
    .set({ confirmed_by: by, confirmed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Whether any admin account is confirmed (none: the first two confirm each other). */
export const anyConfirmedAdmin = async (db: Db): Promise<boolean> =>
  (await db
    .selectFrom('staff')
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('confirmed_at', 'is not', null)
    .limit(1)
    .executeTakeFirst()) !== undefined

/** A set-up's authenticator key, written only where none is pending (an earlier one is kept). */
export async function setPendingSeedIfNone(db: Db, id: string, cipher: string, now: number): Promise<void> {
  await db
    .updateTable('staff')
    .set({ totp_pending_cipher: cipher, updated_at: now })
    .where('id', '=', id)
    .where('totp_pending_cipher', 'is', null)
    .execute()
}

// ─── One-time tokens ────────────────────────────────────────────────────────────────────────────

/** A new one-time token of this purpose; the clear token exists only in the answer. */
export async function issueStaffToken(
  db: Db,
  staffId: string,
  purpose: 'challenge' | 'setup',
  now: number,
  ttlMs: number,
): Promise<string> {
  const token = newToken()
  await db
    .insertInto('staff_tokens')
    .values({ token_hash: hashToken(token), staff_id: staffId, purpose, created_at: now, expires_at: now + ttlMs, used_at: null })
    .execute()
  return token
}

/** The staff id behind a live (unused, unexpired) token of this purpose. */
export async function findStaffToken(db: Db, token: string, purpose: 'challenge' | 'setup', now: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff_tokens')
    .select('staff_id')
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row?.staff_id
}

/** Uses a token once: false when it was already used (a twin request won). */
export async function useStaffToken(db: Db, token: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('staff_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Ends every open token of a staff member (a reset makes the old set-up link worthless). */
export async function burnStaffTokens(db: Db, staffId: string, now: number): Promise<void> {
  await db.updateTable('staff_tokens').set({ used_at: now }).where('staff_id', '=', staffId).where('used_at', 'is', null).execute()
}

// ─── Sessions ───────────────────────────────────────────────────────────────────────────────────

export async function createStaffSession(
  db: Db,
  staffId: string,
  now: number,
  maxMs: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = newToken()
  await db
    .insertInto('staff_sessions')
    .values({
      token_hash: hashToken(token),
      staff_id: staffId,
      created_at: now,
      last_seen_at: now,
      expires_at: now + maxMs,
      revoked_at: null,
    })
    .execute()
  return { token, expiresAt: now + maxMs }
}

/**
 * A session's last use is written at most this often: every console page is a staff call, and a
 * write on each was a statement (and a commit) more than the page's own reads. The idle end can so
 * come up to this much before `idleMs` after the last call, never after it.
 */
export const STAFF_SEEN_WRITE_MS = 60_000

/**
 * The active staff member behind a live session, and the session's idle clock restarted (written
 * when the last write is STAFF_SEEN_WRITE_MS old). Dead: revoked, past its absolute end, idle longer
 * than `idleMs`, or its staff member not active or locked.
 */
export async function touchStaffSession(db: Db, token: string, now: number, idleMs: number): Promise<StaffRow | undefined> {
  const tokenHash = hashToken(token)
  const found = await db
    .selectFrom('staff_sessions')
    .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
    .selectAll('staff')
    .select('staff_sessions.last_seen_at as session_seen_at')
    .where('staff_sessions.token_hash', '=', tokenHash)
    .where('staff_sessions.revoked_at', 'is', null)
    .where('staff_sessions.expires_at', '>', now)
    .where('staff_sessions.last_seen_at', '>', now - idleMs)
    .where('staff.status', '=', 'active')
    .where('staff.locked_at', 'is', null)
    .executeTakeFirst()
  if (!found) return undefined
  const { session_seen_at: seenAt, ...staff } = found
  if (now - Number(seenAt) >= STAFF_SEEN_WRITE_MS)
    await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute()
  return staff
}

export async function revokeStaffSession(db: Db, token: string, now: number): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute()
}

export async function revokeStaffSessions(db: Db, staffId: string, now: number): Promise<void> {
  await db.updateTable('staff_sessions').set({ revoked_at: now }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).execute()
}
