// `npm run ops -- backup <dir>` and `restore <dir>`: the database and the uploaded photos, with a
// manifest that restore checks before it touches anything. Reached the way the api reaches them:
// DATABASE_URL (default file:data/cardlane.db), STORAGE and UPLOAD_DIR (default data/uploads).
//
// SQLite: better-sqlite3's online backup API, so the api keeps serving while it runs (WAL: the
// copy reads one consistent state, writers are not held). PostgreSQL: pg_dump -Fc on a snapshot
// exported by our own read-only transaction, so the row counts in the manifest are of the same
// moment as the dump. Photos are copied after the database: a photo is stored before its row, so
// every photo the copied database names is already on disk.
//
// Whoever can write to the backup folder must not be able to choose what a restore runs: the
// manifest is signed (Ed25519, node:crypto) with a key kept outside the backup
// (BACKUP_SIGNING_KEY_FILE, default data/backup-signing-key, made once, mode 600), and restore
// refuses a backup without that signature; PostgreSQL is restored as the application's role, not
// a superuser (unless --allow-superuser); links are refused in the photo folder both ways.
import { spawn } from 'node:child_process'
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify as verifySignature } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import SQLite from 'better-sqlite3'
import pg from 'pg'

export const FORMAT = 1
const MANIFEST = 'manifest.json'
const SIGNATURE = 'manifest.sig'
const SQLITE_FILE = 'database.sqlite'
const PG_FILE = 'database.pgdump'
const UPLOADS = 'uploads'

/** A refusal the operator can act on: printed as it is, exit 2. */
export class BackupError extends Error {}
const refuse = (message) => {
  throw new BackupError(message)
}

const dialectOf = (url) => (/^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite')
const dialectName = { sqlite: 'SQLite', postgres: 'PostgreSQL' }

/** As api/db/connect.ts reads DATABASE_URL: `file:rel`, `file:/abs`, `file:///abs`. */
function sqlitePath(url) {
  if (url.startsWith('file://')) return fileURLToPath(url)
  return path.resolve(url.replace(/^file:/, ''))
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

/**
 * Every file under `dir`, relative, sorted; half-written photos (`*.part`) are not photos yet. A
 * symbolic link, a file with another name elsewhere (a hard link) or anything but a plain file or
 * folder is refused: a photo folder holds photos, and a link would copy a file of the host.
 */
function filesUnder(dir) {
  if (!existsSync(dir)) return []
  if (lstatSync(dir).isSymbolicLink()) refuse(`${dir} is a symbolic link: a photo folder is a plain folder`)
  const out = []
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(child)
      else if (entry.isFile()) {
        if (entry.name.endsWith('.part')) continue
        plainFile(path.join(dir, child))
        out.push(child)
      } else refuse(`${path.join(dir, child)} is a link or not a plain file: the photo folder holds plain files only`)
    }
  }
  walk('')
  return out.sort()
}

/** A plain file with no other name (a hard link could be a host's file), and no link on its way. */
function plainFile(file) {
  const st = lstatSync(file)
  if (!st.isFile()) refuse(`${file} is a link or not a plain file: the photo folder holds plain files only`)
  if (st.nlink > 1) refuse(`${file} has other names (a hard link): the photo folder holds plain files only`)
  if (realpathSync(file) !== path.resolve(file)) refuse(`${file} is reached through a link: the photo folder holds plain files only`)
}

// ---------------------------------------------------------------- the signing key

/**
 * The installation's Ed25519 key (PKCS#8 PEM) that signs each manifest; made on the first backup
 * (mode 600), like data/session-secret. It never goes into a backup: keep a copy apart from them.
 */
function signingKey(settings, { make }) {
  const file = settings.signingKeyFile
  if (!existsSync(file)) {
    if (!make)
      refuse(
        `no backup signing key at ${file} (BACKUP_SIGNING_KEY_FILE): a backup is restored only with the key that signed it; copy that key here`,
      )
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    const { privateKey } = generateKeyPairSync('ed25519')
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' })
  }
  chmodSync(file, 0o600)
  try {
    const key = createPrivateKey(readFileSync(file))
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('not Ed25519')
    return key
  } catch {
    return refuse(`${file} (BACKUP_SIGNING_KEY_FILE) is not an Ed25519 private key in PEM`)
  }
}

/** The settings of the api this backs up or restores into, from the same variables. */
export function settingsFrom(env) {
  const databaseUrl = env.DATABASE_URL || 'file:data/cardlane.db'
  return {
    databaseUrl,
    dialect: dialectOf(databaseUrl),
    storage: env.STORAGE || 'disk',
    uploadDir: path.resolve(env.UPLOAD_DIR || 'data/uploads'),
    signingKeyFile: path.resolve(env.BACKUP_SIGNING_KEY_FILE || 'data/backup-signing-key'),
  }
}

// ---------------------------------------------------------------- PostgreSQL tools

/**
 * pg_dump / pg_restore: PG_BIN_DIR if set, else the newest /usr/lib/postgresql/<major>/bin (a dump
 * must be made by a pg_dump at least as new as the server), else /usr/bin, /usr/local/bin, PATH.
 * @param {string} name
 * @param {Record<string, string | undefined>} [env]
 */
export function findPgTool(name, env = process.env) {
  const dirs = []
  if (env.PG_BIN_DIR) dirs.push(env.PG_BIN_DIR)
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : []
  dirs.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`), '/usr/bin', '/usr/local/bin', ...(env.PATH ?? '').split(':'))
  for (const dir of dirs) {
    const file = dir && path.join(dir, name)
    if (file && existsSync(file)) return file
  }
  return refuse(
    `${name} was not found (looked in ${env.PG_BIN_DIR ? 'PG_BIN_DIR, ' : ''}/usr/lib/postgresql/*/bin, /usr/bin, /usr/local/bin and PATH). ` +
      `Install the PostgreSQL client (Debian: apt-get install postgresql-client) or set PG_BIN_DIR.`,
  )
}

/** libpq's variables from a postgres:// URL, so no password appears in a process's arguments. */
function pgEnv(url) {
  const u = new URL(url)
  const sslmode = u.searchParams.get('sslmode')
  return {
    PGHOST: decodeURIComponent(u.hostname) || 'localhost',
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
    ...(u.username && { PGUSER: decodeURIComponent(u.username) }),
    ...(u.password && { PGPASSWORD: decodeURIComponent(u.password) }),
    ...(sslmode && { PGSSLMODE: sslmode }),
  }
}

function run(file, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${path.basename(file)} failed (exit ${code}): ${stderr.trim()}`)),
    )
  })
}

// ---------------------------------------------------------------- what a database holds

async function pgTables(client) {
  const { rows } = await client.query(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  )
  return rows.map((r) => r.name)
}

const sqliteTables = (db) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1")
    .all()
    .map((r) => r.name)

const quote = (name) => `"${name.replaceAll('"', '""')}"`

/** The newest migration that has run (kysely_migration), or null on an empty database. */
async function migrationLevel(query, tables) {
  if (!tables.includes('kysely_migration')) return null
  const rows = await query('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1')
  return rows[0]?.name ?? null
}

async function countsOf(query, tables) {
  const counts = {}
  for (const t of tables) counts[t] = Number((await query(`SELECT count(*) AS n FROM ${quote(t)}`))[0].n)
  return counts
}

async function sqliteState(file) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true })
  try {
    const query = async (sql) => db.prepare(sql).all()
    const tables = sqliteTables(db)
    return { migration: await migrationLevel(query, tables), counts: await countsOf(query, tables) }
  } finally {
    db.close()
  }
}

async function withPg(url, fn) {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
  } catch (err) {
    refuse(`cannot reach the database at ${new URL(url).host} (${err.code ?? err.message})`)
  }
  try {
    return await fn(client, async (sql) => (await client.query(sql)).rows)
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------- backup

/**
 * Writes a backup of the database and the photos into `dir` (new or empty) and returns its manifest.
 * @param {string} dir
 * @param {ReturnType<typeof settingsFrom>} settings
 */
export async function backup(dir, settings) {
  const target = path.resolve(dir)
  if (existsSync(target) && readdirSync(target).length) refuse(`${target} is not empty: a backup goes into a new or empty folder`)
  const key = signingKey(settings, { make: true })
  // Links in the photo folder are refused before anything is written.
  if (settings.storage !== 's3') filesUnder(settings.uploadDir)
  mkdirSync(target, { recursive: true, mode: 0o700 })
  const startedAt = Date.now()
  let state
  let dbFile
  if (settings.dialect === 'sqlite') {
    const source = sqlitePath(settings.databaseUrl)
    if (!existsSync(source)) refuse(`no SQLite database at ${source} (DATABASE_URL)`)
    dbFile = SQLITE_FILE
    const db = new SQLite(source, { fileMustExist: true })
    try {
      db.pragma('busy_timeout = 5000')
      // All remaining pages in one step: a step that a writer interrupts starts the copy again,
      // and small steps under steady writes could start again for ever.
      await db.backup(path.join(target, dbFile), { progress: ({ remainingPages }) => Math.max(remainingPages, 100) })
    } finally {
      db.close()
    }
    const copy = new SQLite(path.join(target, dbFile), { fileMustExist: true })
    const check = copy.pragma('integrity_check', { simple: true })
    // The copy is a single file: no -wal beside it.
    copy.pragma('journal_mode = DELETE')
    copy.close()
    if (check !== 'ok') refuse(`the copy of the database failed its integrity check: ${check}`)
    state = await sqliteState(path.join(target, dbFile))
  } else {
    const pgDump = findPgTool('pg_dump')
    dbFile = PG_FILE
    state = await withPg(settings.databaseUrl, async (client, query) => {
      // pg_dump reads the snapshot this transaction exports: the counts and the dump are one moment.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const snapshot = (await query('SELECT pg_export_snapshot() AS id'))[0].id
      const tables = await pgTables(client)
      const counts = await countsOf(query, tables)
      const migration = await migrationLevel(query, tables)
      await run(
        pgDump,
        ['-Fc', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, '-f', path.join(target, dbFile)],
        pgEnv(settings.databaseUrl),
      )
      await client.query('COMMIT')
      return { migration, counts }
    })
  }
  if (!state.migration) refuse('the database has no migrations: it is not a Cardlane database (or it is empty)')

  const files = { [dbFile]: describe(path.join(target, dbFile)) }
  let photos = 'disk'
  if (settings.storage === 's3') photos = 's3'
  else {
    for (const rel of filesUnder(settings.uploadDir)) {
      const to = path.join(target, UPLOADS, rel)
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 })
      try {
        copyFileSync(path.join(settings.uploadDir, rel), to)
      } catch (err) {
        // Deleted between the listing and the copy (an account deleted meanwhile): not in the copy of the database either.
        if (err.code === 'ENOENT') continue
        throw err
      }
      files[`${UPLOADS}/${rel}`] = describe(to)
    }
  }
  const manifest = {
    format: FORMAT,
    app: 'cardlane',
    dialect: settings.dialect,
    migration: state.migration,
    createdAt: new Date(startedAt).toISOString(),
    photos,
    counts: state.counts,
    files,
  }
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(path.join(target, MANIFEST), bytes, { mode: 0o600 })
  writeFileSync(path.join(target, SIGNATURE), `${sign(null, bytes, key).toString('base64')}\n`, { mode: 0o600 })
  return manifest
}

/** A plain file of one name, inside `root` with no link on its way. */
function isPlainFileIn(root, file) {
  const st = lstatSync(file)
  return st.isFile() && st.nlink === 1 && realpathSync(file) === path.join(realpathSync(root), path.relative(root, file))
}

function describe(file) {
  return { bytes: statSync(file).size, sha256: sha256(file) }
}

// ---------------------------------------------------------------- restore

/** Reads the manifest and checks every file against it; nothing is written. */
export function verify(dir, settings) {
  const source = path.resolve(dir)
  const file = path.join(source, MANIFEST)
  if (!existsSync(file)) refuse(`${source} has no ${MANIFEST}: it is not a Cardlane backup`)
  const publicKey = createPublicKey(signingKey(settings, { make: false }))
  const bytes = readFileSync(file)
  const sigFile = path.join(source, SIGNATURE)
  if (!existsSync(sigFile)) refuse(`${source} has no ${SIGNATURE}: an unsigned backup is not restored`)
  const signature = Buffer.from(readFileSync(sigFile, 'utf8').trim(), 'base64')
  if (!verifySignature(null, bytes, publicKey, signature))
    refuse(
      `${MANIFEST} in ${source} is not signed by this installation's backup key (${settings.signingKeyFile}): it was changed, or made elsewhere`,
    )
  let manifest
  try {
    manifest = JSON.parse(bytes.toString('utf8'))
  } catch {
    refuse(`${file} is damaged: it is not JSON`)
  }
  if (manifest?.app !== 'cardlane' || typeof manifest.files !== 'object' || !manifest.files)
    refuse(`${file} is not a Cardlane backup manifest`)
  if (manifest.format !== FORMAT) refuse(`this backup has format ${manifest.format}; this version reads format ${FORMAT}`)
  if (manifest.dialect !== settings.dialect)
    refuse(
      `this backup is of a ${dialectName[manifest.dialect] ?? manifest.dialect} database; DATABASE_URL names ${dialectName[settings.dialect]}`,
    )
  if (manifest.photos === 'disk' && settings.storage !== 'disk')
    refuse(
      'this backup holds photos for a disk folder; STORAGE is s3 here: copy uploads/ into the bucket yourself, or restore with STORAGE=disk',
    )
  const dbFile = manifest.dialect === 'sqlite' ? SQLITE_FILE : PG_FILE
  if (!manifest.files[dbFile]) refuse(`the manifest names no ${dbFile}: the backup is incomplete`)
  const problems = []
  for (const [rel, want] of Object.entries(manifest.files)) {
    const at = path.join(source, rel)
    if (rel.includes('..') || path.isAbsolute(rel)) problems.push(`${rel}: not a path inside the backup`)
    else if (!existsSync(at)) problems.push(`${rel}: missing`)
    else if (!isPlainFileIn(source, at)) problems.push(`${rel}: a link or not a plain file`)
    else if (statSync(at).size !== want.bytes || sha256(at) !== want.sha256) problems.push(`${rel}: differs from the manifest (sha256)`)
  }
  const listed = new Set(Object.keys(manifest.files))
  for (const rel of filesUnder(path.join(source, UPLOADS))) {
    if (!listed.has(`${UPLOADS}/${rel}`)) problems.push(`${UPLOADS}/${rel}: not in the manifest`)
  }
  if (problems.length)
    refuse(
      `the backup in ${source} is damaged and was not restored:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … ${problems.length - 20} more` : ''}`,
    )
  return { manifest, source, dbFile }
}

/**
 * Restores `dir` into the database and the upload folder of `settings`. Refuses a damaged,
 * unsigned or mismatched backup, a database or folder that holds data unless `force`, and a
 * PostgreSQL superuser role unless `allowSuperuser` (a dump runs as the role that restores it).
 * @param {string} dir
 * @param {ReturnType<typeof settingsFrom>} settings
 * @param {{ force?: boolean, allowSuperuser?: boolean }} [options]
 */
export async function restore(dir, settings, { force = false, allowSuperuser = false } = {}) {
  const { manifest, source, dbFile } = verify(dir, settings)
  const notEmpty = (what) =>
    refuse(`${what} already holds data: restore into an empty one, or add --force to replace it (stop the api first)`)
  const photos = manifest.photos === 'disk' ? filesUnder(settings.uploadDir) : []
  if (photos.length && !force) notEmpty(`the upload folder ${settings.uploadDir}`)

  if (settings.dialect === 'sqlite') {
    const target = sqlitePath(settings.databaseUrl)
    if (existsSync(target) && statSync(target).size > 0) {
      const db = new SQLite(target, { readonly: true, fileMustExist: true })
      const tables = sqliteTables(db)
      db.close()
      if (tables.length && !force) notEmpty(`the SQLite database ${target}`)
    }
    mkdirSync(path.dirname(target), { recursive: true })
    // Copied aside and renamed over: the database is never half a file.
    const temp = `${target}.restore-${process.pid}`
    copyFileSync(path.join(source, dbFile), temp)
    for (const f of [`${target}-wal`, `${target}-shm`]) rmSync(f, { force: true })
    renameSync(temp, target)
  } else {
    const pgRestore = findPgTool('pg_restore')
    await withPg(settings.databaseUrl, async (client, query) => {
      const [role] = await query('SELECT current_user AS name, rolsuper AS super FROM pg_roles WHERE rolname = current_user')
      if (role?.super && !allowSuperuser)
        refuse(
          `DATABASE_URL signs in as ${role.name}, a superuser: restore as the application's own role (the owner of its database), or add --allow-superuser if you must`,
        )
      if ((await pgTables(client)).length && !force) notEmpty(`the PostgreSQL database ${new URL(settings.databaseUrl).pathname.slice(1)}`)
    })
    const env = pgEnv(settings.databaseUrl)
    await run(
      pgRestore,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        ...(force ? ['--clean', '--if-exists'] : []),
        `--dbname=${env.PGDATABASE}`,
        path.join(source, dbFile),
      ],
      env,
    )
  }

  if (manifest.photos === 'disk') {
    if (force) rmSync(settings.uploadDir, { recursive: true, force: true })
    for (const rel of Object.keys(manifest.files).filter((f) => f.startsWith(`${UPLOADS}/`))) {
      const to = path.join(settings.uploadDir, rel.slice(UPLOADS.length + 1))
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 })
      copyFileSync(path.join(source, rel), to)
    }
  }

  // What arrived is what the manifest says was taken.
  const state =
    settings.dialect === 'sqlite'
      ? await sqliteState(sqlitePath(settings.databaseUrl))
      : await withPg(settings.databaseUrl, async (client, query) => {
          const tables = await pgTables(client)
          return { migration: await migrationLevel(query, tables), counts: await countsOf(query, tables) }
        })
  const differences = Object.entries(manifest.counts)
    .filter(([t, n]) => state.counts[t] !== n)
    .map(([t, n]) => `${t}: ${state.counts[t] ?? 'missing'} rows, the backup had ${n}`)
  if (state.migration !== manifest.migration) differences.push(`migration ${state.migration}, the backup had ${manifest.migration}`)
  if (differences.length) refuse(`the restored database differs from the backup:\n  ${differences.join('\n  ')}`)
  return manifest
}
