import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema'

export type Db = Kysely<Database>
export type DbKind = 'sqlite' | 'postgres'

export function dbKind(databaseUrl: string): DbKind {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite'
}

/** `file:data/x.db` (relative to the working directory), `file:/abs/x.db`, `file:///abs/x.db`, `:memory:`. */
export function sqlitePath(databaseUrl: string): string {
  if (databaseUrl === ':memory:' || databaseUrl === 'file::memory:') return ':memory:'
  if (databaseUrl.startsWith('file://')) return fileURLToPath(databaseUrl)
  return resolve(databaseUrl.replace(/^file:/, ''))
}

// int8 (bigint, oid 20) comes back from pg as a string by default; our bigints are epoch
// milliseconds and counters, all far below 2^53, so numbers are safe and match SQLite's answers.
const INT8_OID = 20
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

export type CreateDbOptions = {
  /** Called for errors of idle pooled connections, which would otherwise crash the process. */
  onPoolError?: (err: Error) => void
}

export function createDb(databaseUrl: string, options: CreateDbOptions = {}): { db: Db; kind: DbKind } {
  const kind = dbKind(databaseUrl)
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, types: pgTypes })
    pool.on('error', (err) => options.onPoolError?.(err))
    return { kind, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) }
  }
  const path = sqlitePath(databaseUrl)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path)
  // WAL lets readers run beside the writer; busy_timeout makes a second process wait instead of
  // failing with SQLITE_BUSY; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  return { kind, db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }) }
}

/** A unique constraint refused the write (SQLite and PostgreSQL say it differently). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
