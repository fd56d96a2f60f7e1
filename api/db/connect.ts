import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import SQLite from 'better-sqlite3'
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type KyselyConfig,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely'
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
  /**
   * Errors of pooled PostgreSQL connections that no query is waiting on (the server ended them:
   * restart, failover, `pg_terminate_backend`, a network reset). Without a listener such an error
   * is an unhandled 'error' event, which ends the process.
   */
  onConnectionError?: (err: Error) => void
  /** Told of every statement run (tests count a page's queries). */
  onQuery?: (sql: string) => void
}

/** A connection that cannot be made waits this long at most, so requests fail (503) instead of hanging. */
const PG_CONNECT_TIMEOUT_MS = 5_000

/** `pool`: PostgreSQL's connection pool (its use is a metric); SQLite has one connection. */
/** A statement that only reads: a select, or a union of selects in brackets. */
const READ = /^\s*\(?\s*select\b/i

/**
 * `writes()`: how many statements other than reads this handle has run (every insert, update,
 * delete and commit, and any that failed), so a figure read from the database can be shown again
 * while nothing was written through this process since.
 */
export function createDb(
  databaseUrl: string,
  options: CreateDbOptions = {},
): { db: Db; kind: DbKind; pool?: pg.Pool; writes: () => number } {
  const kind = dbKind(databaseUrl)
  const onError = (err: Error) => options.onConnectionError?.(err)
  const onQuery = options.onQuery
  let writes = 0
  // Logged once a statement has ended (a commit once committed): a read that began before it is older.
  const log: KyselyConfig['log'] = (event) => {
    if (event.level === 'error' || !READ.test(event.query.sql)) writes++
    if (event.level === 'query') onQuery?.(event.query.sql)
  }
  const written = () => writes
  if (kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      types: pgTypes,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      // Notices a silently dropped connection (a failover, a NAT forgetting it) in minutes, not hours.
      keepAlive: true,
    })
    // The pool listens to its idle clients only; a client checked out by Kysely has no listener
    // until it is given back, and its query may already have ended. This one stays for the client's
    // life. The query in flight still fails (and answers 503); the pool drops the dead client on release.
    pool.on('connect', (client) => client.on('error', onError))
    pool.on('error', onError)
    return {
      kind,
      pool,
      writes: written,
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }), log }),
    }
  }
  const path = sqlitePath(databaseUrl)
  if (path !== ':memory:') createPrivately(path)
  const sqlite = new SQLite(path)
  // WAL lets readers run beside the writer; busy_timeout makes a second process wait instead of
  // failing with SQLITE_BUSY; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('busy_timeout = 5000')
  // FULL: a committed movement of money survives a power cut, not only a crash of the process.
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  return { kind, writes: written, db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log }) }
}

/** How many prepared statements are kept: the query builder writes a few hundred distinct texts at most. */
export const STATEMENT_CACHE_SIZE = 500

/**
 * better-sqlite3 with its prepared statements kept: Kysely prepares every query anew, and SQLite's
 * parsing and planning were a third of the api's CPU for /v1/user/index (docs/performance.md).
 * Safe to share: Kysely runs one query at a time on its one SQLite connection, each to the end
 * (`all`/`run`) before the next, and SQLite re-prepares a statement itself after a schema change.
 * Bounded (least recently used first out): a text with a variable-length `in (…)` list is a new text.
 */
export function withStatementCache(sqlite: SQLite.Database, max = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql)
      if (statement) {
        statements.delete(sql) // to the back of the line
      } else {
        statement = sqlite.prepare(sql)
        if (statements.size >= max) statements.delete(statements.keys().next().value as string)
      }
      statements.set(sql, statement)
      return statement
    },
  }
}

/** What gets a name: reads and writes. Transaction control, migrations' DDL and the like stay unnamed. */
const NAMED = /^\s*(select|insert|update|delete|with)\b/i

/** PostgreSQL's answer to a prepared `select *` after its table changed (a migration by another instance). */
const isStalePlan = (err: unknown) =>
  (err as { code?: unknown } | null)?.code === '0A000' && /cached plan/.test(String((err as Error).message))

/**
 * pg's pool with every statement prepared once per connection under a name, then only bound and
 * run: Kysely sends each query unnamed, and PostgreSQL parsed and planned it anew every time, which
 * cost the database more CPU than the api's own work for /v1/user/index (docs/performance.md).
 * The same text gets the same name on every connection; each connection prepares it on first use
 * (pg remembers which). Bounded like SQLite's cache: past `max` distinct texts, a new one runs
 * unnamed. A prepared `select *` whose table has since changed (a migration run by another
 * instance) is refused by PostgreSQL once: the query runs again unnamed and the connection, whose
 * other prepared statements may be as stale, is closed when it is given back.
 */
export function withNamedStatements(pool: pg.Pool, max = STATEMENT_CACHE_SIZE): PostgresPool {
  const names = new Map<string, string>()
  const nameOf = (sql: string) => {
    let name = names.get(sql)
    if (name === undefined && names.size < max && NAMED.test(sql)) {
      name = `cardlane_${names.size}`
      names.set(sql, name)
    }
    return name
  }
  // Kysely keeps its connection object per client: the same client must come back as the same wrapper.
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let stale = false
    const query = async (sql: string, parameters: readonly unknown[]) => {
      const values = [...parameters]
      const name = nameOf(sql)
      if (name === undefined) return client.query(sql, values)
      try {
        return await client.query({ name, text: sql, values })
      } catch (err) {
        if (!isStalePlan(err)) throw err
        stale = true
        return client.query(sql, values)
      }
    }
    return {
      // A cursor (Kysely's stream) goes to pg as it is.
      query: ((sql: unknown, parameters?: readonly unknown[]) =>
        typeof sql === 'string'
          ? query(sql, parameters ?? [])
          : client.query(sql as pg.Submittable)) as unknown as PostgresPoolClient['query'],
      release(destroy) {
        const dropped = stale
        stale = false
        if (dropped) wrapped.delete(client)
        client.release(destroy || dropped)
      },
    }
  }
  return {
    async connect() {
      const client = await pool.connect()
      let w = wrapped.get(client)
      if (!w) {
        w = wrap(client)
        wrapped.set(client, w)
      }
      return w
    },
    end: () => pool.end(),
  }
}

/**
 * The database file holds every account: readable by its owner only (0600, like the session secret
 * beside it). SQLite gives the -wal and -shm files the mode of the database file. Files made
 * world-readable by an older version are narrowed at start.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true })
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600)
    } catch {
      // -wal and -shm exist only while a connection is open; a file we do not own stays as it is.
    }
  }
}

/** A unique constraint refused the write (SQLite and PostgreSQL say it differently). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

const UNREACHABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
])
// PostgreSQL SQLSTATE: 08xxx connection exceptions; 57P01-57P03 the server is shutting down or
// starting (pg_terminate_backend is 57P01); 53300 too many connections.
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/
// SQLite: locked past busy_timeout, cannot open, I/O error, not a database or corrupt, disk full,
// read-only. Nothing a retry of the same request by the client could not fix once resolved.
const UNREACHABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|NOTADB|CORRUPT|FULL|READONLY|PERM)/
// What pg and Kysely say without a code.
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|driver has already been destroyed)/

/**
 * The database is unreachable or unusable, as opposed to a bug in a query: the request answers
 * 503 "Service unavailable" and the outage is logged once (api/lib/db-health.ts).
 */
export function isDbUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof code === 'string' && (UNREACHABLE_ERRNO.has(code) || UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_SQLITE.test(code))) {
    return true
  }
  if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message)) return true
  // Connecting to a name with several addresses fails with one error per address.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDbUnavailable)
}
