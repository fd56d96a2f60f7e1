import { isAvatarAddress, type UserInfo } from '#contract/profile'
import type { Db, DbKind } from '../db/connect'
import type { NewUser, User } from '../db/schema'
import { newId } from '../lib/tokens'

export const findUserById = (db: Db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()

export const findUsersByIds = (db: Db, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', [...new Set(ids)])
        .execute()

/** `email` must already be normalised (trimmed, lowercased) as the contract's emailField does. */
export const findUserByEmail = (db: Db, email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()

export const findUserByGoogleSub = (db: Db, sub: string) =>
  db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst()

/** Throws a unique violation (see isUniqueViolation) when the e-mail or Google account is taken. */
export async function createUser(
  db: Db,
  fields: Pick<NewUser, 'email' | 'user_name'> &
    Partial<Pick<NewUser, 'password_hash' | 'head_img' | 'google_sub' | 'google_email' | 'signup_address'>>,
  now: number,
): Promise<User> {
  const row: User = {
    id: newId(),
    email: fields.email,
    password_hash: fields.password_hash ?? null,
    user_name: fields.user_name,
    head_img: fields.head_img ?? null,
    google_sub: fields.google_sub ?? null,
    google_email: fields.google_email ?? null,
    signup_address: fields.signup_address ?? null,
    push_amounts: 0,
    created_at: now,
    updated_at: now,
  }
  await db.insertInto('users').values(row).execute()
  return row
}

export async function updateProfile(
  db: Db,
  id: string,
  patch: { user_name?: string; head_img?: string | null },
  now: number,
): Promise<User | undefined> {
  await db
    .updateTable('users')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute()
  return findUserById(db, id)
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute()
}

/**
 * Replaces a password hash by a stronger one of the same password, only if it is still the hash
 * that was verified: a password reset in between wins.
 */
export async function upgradePasswordHash(db: Db, id: string, verifiedHash: string, newHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: newHash }).where('id', '=', id).where('password_hash', '=', verifiedHash).execute()
}

/**
 * Links a Google account (its `sub`, and the e-mail Google verified for it) to a user that has
 * none yet, or refreshes the e-mail of the same one; false when the user has a different one.
 * Throws a unique violation (isUniqueViolation) when another user holds this `sub`.
 */
export async function linkGoogleSub(db: Db, id: string, sub: string, now: number, email: string | null): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ google_sub: sub, google_email: email, updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('google_sub', 'is', null), eb('google_sub', '=', sub)]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** The contract's userInfo (SPEC §3): userId, userName, email, headImg. */
export const toUserInfo = (u: User): UserInfo => ({
  userId: u.id,
  userName: u.user_name,
  email: u.email,
  // A value stored before the address rule was tightened is not shown (another origin's picture).
  headImg: u.head_img !== null && isAvatarAddress(u.head_img) ? u.head_img : null,
  googleEmail: u.google_sub ? u.google_email : null,
})

/**
 * Inside a write transaction: makes this person's count-then-write steps one at a time. PostgreSQL
 * locks their row until the commit; SQLite's BEGIN IMMEDIATE already serializes every writer.
 */
export async function lockUser(trx: Db, kind: DbKind, userId: string): Promise<void> {
  if (kind !== 'postgres') return
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst()
}
