import type { Db } from '../db/connect'
import { preparedQuery } from '../db/fixed-query'
import type { User } from '../db/schema'
import { hashToken, newToken } from '../lib/tokens'

/** Starts a session and returns its token: the only time the token exists in clear. */
export async function createSession(db: Db, userId: string, now: number, ttlMs: number): Promise<string> {
  const token = newToken()
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: now + ttlMs, revoked_at: null })
    .execute()
  return token
}

/** The user behind a live (not expired, not revoked) token: every signed-in call asks it first. */
export async function findSessionUser(db: Db, token: string, now: number): Promise<User | undefined> {
  return (await liveSessionUser(db, hashToken(token), now))[0]
}

// The person by a scalar subquery on the session, not a join: the same row (a token hash is
// unique), and SQLite runs the subquery form several times faster (docs/performance.md).
const liveSessionUser = preparedQuery(2, (db, tokenHash: string, now: number) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', (eb) =>
      eb
        .selectFrom('sessions')
        .select('sessions.user_id')
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', now),
    ),
)

export async function revokeSession(db: Db, token: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute()
}

/** Signs the user out everywhere (after a password reset). */
export async function revokeUserSessions(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
}

/** Housekeeping: sessions past their expiry (or revoked that long ago) are of no further use. */
export async function deleteDeadSessions(db: Db, now: number, keepMs: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', now - keepMs), eb('revoked_at', '<', now - keepMs)]))
    .execute()
}
