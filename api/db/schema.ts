import type { Insertable, Selectable, Updateable } from 'kysely'

/**
 * The database as Kysely sees it. Column names are snake_case as stored; models map them to the
 * contract's names (userId, userName, headImg). Every timestamp is epoch milliseconds in a bigint
 * column (read back as a JS number on both SQLite and PostgreSQL). Later issues add their tables
 * here and in a new migration.
 */
export interface Database {
  users: UsersTable
  sessions: SessionsTable
  email_codes: EmailCodesTable
  rate_limits: RateLimitsTable
}

export interface UsersTable {
  id: string
  /** Always stored lowercased and trimmed: one account per address. */
  email: string
  /** Self-describing scrypt string; null for accounts made through Google only. */
  password_hash: string | null
  user_name: string
  head_img: string | null
  /** Google's stable `sub` claim once the account is linked. */
  google_sub: string | null
  created_at: number
  updated_at: number
}

export interface SessionsTable {
  /** sha256 (base64url) of the opaque token; the token itself is never stored. */
  token_hash: string
  user_id: string
  created_at: number
  expires_at: number
  revoked_at: number | null
}

export interface EmailCodesTable {
  id: string
  email: string
  /** contract CodeType: 1 register, 2 reset password, 3 sign in, 4 reset PIN, 5 delete account. */
  type: number
  code_hash: string
  created_at: number
  expires_at: number
  /** Tries spent, right or wrong; at MAX_CODE_ATTEMPTS the code is burnt. */
  attempts: number
  /** Set when the code is consumed or voided by a newer code. */
  used_at: number | null
}

export interface RateLimitsTable {
  key: string
  hits: number
  reset_at: number
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Session = Selectable<SessionsTable>
export type EmailCode = Selectable<EmailCodesTable>
