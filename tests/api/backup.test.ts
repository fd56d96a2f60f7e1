import { spawn } from 'node:child_process'
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import {
  cpSync,
  type Dirent,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createDb, type Db } from '../../api/db/connect'
import { findPgTool } from '../../scripts/lib/backup.mjs'
import { createTestDatabase, type TestDatabase } from '../support/db'
import { photo, sold, useSellingApi } from '../support/selling'
import { adjust, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * `npm run ops -- backup` of a running api while people withdraw, sell and upload and operators
 * credit wallets over HTTP, then `restore` into a fresh database and a fresh photo folder: the books
 * balance, every withdrawal answered before the backup began is there, the photos are the same
 * bytes. A backup that was tampered with, or is of the other database, is refused. SQLite and
 * PostgreSQL (TEST_DB).
 */
const api = useSellingApi()
const script = path.resolve(__dirname, '../../scripts/ops.mjs')
const home = mkdtempSync(path.join(tmpdir(), 'backup-test-'))
/** The installation's backup signing key: outside every backup folder. */
const signingKeyFile = path.join(home, 'keys', 'backup-signing-key')
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
  rmSync(home, { recursive: true, force: true })
})

/** The CLI with the api's DATABASE_URL and UPLOAD_DIR unless `env` says otherwise. */
async function ops(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: api.databaseUrl,
      UPLOAD_DIR: api.uploadDir,
      BACKUP_SIGNING_KEY_FILE: signingKeyFile,
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    timeout: 120_000,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)))
  return { code, stdout, stderr }
}

/** A fresh, empty database and photo folder to restore into, dropped after the file. */
async function freshPlace(): Promise<{
  database: TestDatabase
  uploads: string
  env: Record<string, string>
  open(): Db
  peek<T>(fn: (db: Db) => Promise<T>): Promise<T>
}> {
  const database = await createTestDatabase()
  const uploads = mkdtempSync(path.join(home, 'uploads-'))
  const opened: Db[] = []
  // PostgreSQL: restored as the application's own role, the owner of its database, as in production.
  const url = database.kind === 'postgres' ? await appRoleUrl(database.url) : database.url
  cleanups.push(async () => {
    for (const db of opened) await db.destroy()
    await database.drop()
    if (url !== database.url) {
      const server = new URL(database.url)
      server.pathname = '/postgres'
      await asSuperuser(server.toString(), (c) => c.query(`DROP ROLE IF EXISTS "${new URL(url).username}"`))
    }
  })
  return {
    database,
    uploads,
    env: { DATABASE_URL: url, UPLOAD_DIR: uploads },
    open() {
      const { db } = createDb(url)
      opened.push(db)
      return db
    },
    /** A look through a connection closed at once (a restore replaces a SQLite file under it). */
    async peek(fn) {
      const { db } = createDb(url)
      try {
        return await fn(db)
      } finally {
        await db.destroy()
      }
    },
  }
}

async function asSuperuser<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** A login role (not a superuser) made owner of the database and its schema; its URL. */
async function appRoleUrl(databaseUrl: string): Promise<string> {
  const role = `cardlane_app_${randomBytes(4).toString('hex')}`
  const name = new URL(databaseUrl).pathname.slice(1)
  await asSuperuser(databaseUrl, async (c) => {
    await c.query(`CREATE ROLE "${role}" LOGIN NOSUPERUSER`)
    await c.query(`ALTER DATABASE "${name}" OWNER TO "${role}"`)
    await c.query(`ALTER SCHEMA public OWNER TO "${role}"`)
  })
  const url = new URL(databaseUrl)
  url.username = role
  url.password = ''
  return url.toString()
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/** What an intruder with write access to the folder does: the manifest re-hashed to match the changed files. */
function rehash(dir: string) {
  const file = path.join(dir, 'manifest.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8'))
  for (const rel of Object.keys(manifest.files))
    manifest.files[rel] = { bytes: statSync(path.join(dir, rel)).size, sha256: sha256(path.join(dir, rel)) }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
  return file
}

/** The manifest signed again with the installation's own key (what only its owner can do). */
function resign(dir: string) {
  const signature = sign(null, readFileSync(path.join(dir, 'manifest.json')), createPrivateKey(readFileSync(signingKeyFile)))
  writeFileSync(path.join(dir, 'manifest.sig'), signature.toString('base64'))
}

const filesUnder = (dir: string) =>
  (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()

async function tableCount(db: Db) {
  const { rows } =
    api.dbKind === 'sqlite'
      ? await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`.execute(db)
      : await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`.execute(db)
  return Number(rows[0].n)
}

describe('npm run ops -- backup / restore', { timeout: 300_000 }, () => {
  it('backs up a running api under write load; the restore has balanced books, every acknowledged withdrawal and the same photos', async () => {
    const people: WalletUser[] = []
    for (let i = 0; i < 4; i++) people.push(await walletUser(api, { balance: 50_000_000 }))
    for (const u of people) await photo(api, u.token)

    // The load: each person withdraws, sells, uploads and is credited in turn until told to stop.
    const acknowledged: string[] = []
    let stop = false
    const load = Promise.all(
      people.map(async (u) => {
        for (let i = 0; !stop; i++) {
          const step = i % 4
          if (step === 0) {
            const res = await withdraw(api, u, 100_000)
            if (res.status === 200 && res.body.code === 200) acknowledged.push(res.body.data.id)
          } else if (step === 1) await adjust(api, u.userId, 12_345, 'backup load')
          else if (step === 2) await sold(api, u.token)
          else await photo(api, u.token)
        }
      }),
    )
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(8)
    const answeredBefore = [...acknowledged]
    const dir = path.join(home, 'under-load')
    const made = await ops(['backup', dir])
    // The load goes on a little after the backup, so the api is written to across the whole of it.
    const after = acknowledged.length
    await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(after)
    stop = true
    await load
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(made.stdout).toMatch(/^Backed up (sqlite|postgres) at migration \d{4}_[\w-]+: \d+ rows, \d+ photo\(s\), into /)
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ format: 1, app: 'cardlane', dialect: api.dbKind, photos: 'disk' })
    // Signed with the installation's key, which is outside the backup and readable by its owner only.
    expect(readdirSync(dir).sort()).toEqual([
      'database.' + (api.dbKind === 'sqlite' ? 'sqlite' : 'pgdump'),
      'manifest.json',
      'manifest.sig',
      'uploads',
    ])
    expect(statSync(signingKeyFile).mode & 0o777).toBe(0o600)
    expect(manifest.counts.balance_logs).toBeGreaterThan(0)

    const place = await freshPlace()
    const restored = await ops(['restore', dir], place.env)
    expect(restored.stderr).toBe('')
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain('every file matched its manifest')
    const db = place.open()

    // The books balance: every wallet is the sum of its entries, nothing is negative.
    const wallets = await db.selectFrom('wallets').select(['user_id', 'balance', 'frozen']).execute()
    const sums = await db
      .selectFrom('balance_logs')
      .select(['user_id', (eb) => eb.fn.sum<number>('amount').as('amount'), (eb) => eb.fn.sum<number>('frozen_change').as('frozen')])
      .groupBy('user_id')
      .execute()
    expect(wallets.length).toBeGreaterThanOrEqual(people.length)
    for (const w of wallets) {
      const s = sums.find((x) => x.user_id === w.user_id)
      expect({ balance: Number(s?.amount ?? 0), frozen: Number(s?.frozen ?? 0) }).toEqual({ balance: w.balance, frozen: w.frozen })
      expect(w.balance).toBeGreaterThanOrEqual(0)
      expect(w.frozen).toBeGreaterThanOrEqual(0)
    }
    expect(
      await db
        .selectFrom('balance_logs')
        .select('id')
        .where((eb) => eb.or([eb('balance_after', '<', 0), eb('frozen_after', '<', 0)]))
        .execute(),
    ).toEqual([])

    // Every withdrawal answered before the backup began is there, with its hold.
    const kept = await db.selectFrom('withdrawals').select('id').where('id', 'in', answeredBefore).execute()
    expect(kept.map((w) => w.id).sort()).toEqual([...answeredBefore].sort())

    // Every photo the restored database names is there, byte for byte what the api stored.
    const keys = (await db.selectFrom('uploads').select('storage_key').execute()).map((u) => u.storage_key).sort()
    expect(keys.length).toBeGreaterThanOrEqual(people.length)
    const restoredFiles = filesUnder(place.uploads)
    expect(restoredFiles).toEqual(expect.arrayContaining(keys))
    for (const f of restoredFiles)
      expect(readFileSync(path.join(place.uploads, f)).equals(readFileSync(path.join(api.uploadDir, f)))).toBe(true)
  })

  it('refuses a tampered backup, one of the other database, and a database that holds data unless --force', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    await photo(api, u.token)
    const dir = path.join(home, 'pristine')
    expect((await ops(['backup', dir])).code).toBe(0)
    const copy = (name: string) => {
      const to = path.join(home, name)
      cpSync(dir, to, { recursive: true })
      return to
    }
    const place = await freshPlace()

    // One byte of one photo changed.
    const photoTampered = copy('photo-tampered')
    const onePhoto = filesUnder(path.join(photoTampered, 'uploads'))[0]
    const file = path.join(photoTampered, 'uploads', onePhoto)
    const bytes = readFileSync(file)
    bytes[bytes.length - 3] ^= 0xff
    writeFileSync(file, bytes)
    const refusedPhoto = await ops(['restore', photoTampered], place.env)
    expect(refusedPhoto.code).toBe(2)
    expect(refusedPhoto.stderr).toContain('is damaged and was not restored')
    expect(refusedPhoto.stderr).toContain(`uploads/${onePhoto}: differs from the manifest (sha256)`)

    // The database file cut short; a photo that is not in the manifest.
    const dbTampered = copy('db-tampered')
    const dbFile = readdirSync(dbTampered).find((f) => f.startsWith('database.'))!
    const whole = readFileSync(path.join(dbTampered, dbFile))
    writeFileSync(path.join(dbTampered, dbFile), whole.subarray(0, whole.length - 100))
    writeFileSync(path.join(dbTampered, 'uploads', 'stray.jpg'), 'not ours')
    const refusedDb = await ops(['restore', dbTampered], place.env)
    expect(refusedDb.code).toBe(2)
    expect(refusedDb.stderr).toContain(`${dbFile}: differs from the manifest (sha256)`)
    expect(refusedDb.stderr).toContain('uploads/stray.jpg: not in the manifest')

    // A backup of the other dialect, and a manifest of a later format.
    const otherDialect = copy('other-dialect')
    const manifestFile = path.join(otherDialect, 'manifest.json')
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, dialect: api.dbKind === 'sqlite' ? 'postgres' : 'sqlite' }))
    resign(otherDialect)
    const refusedDialect = await ops(['restore', otherDialect], place.env)
    expect(refusedDialect.stderr).toContain(
      api.dbKind === 'sqlite'
        ? 'this backup is of a PostgreSQL database; DATABASE_URL names SQLite'
        : 'this backup is of a SQLite database; DATABASE_URL names PostgreSQL',
    )
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, format: 2 }))
    resign(otherDialect)
    expect((await ops(['restore', otherDialect], place.env)).stderr).toContain('this backup has format 2; this version reads format 1')
    expect((await ops(['restore', path.join(home, 'nothing-here')], place.env)).stderr).toContain('has no manifest.json')

    // Nothing of the refused attempts reached the fresh database or folder.
    expect(await place.peek(tableCount)).toBe(0)
    expect(filesUnder(place.uploads)).toEqual([])

    // Over the running api's own database: refused; into the fresh place it goes, and again only with --force.
    const overLive = await ops(['restore', dir])
    expect(overLive.code).toBe(2)
    expect(overLive.stderr).toContain('already holds data: restore into an empty one, or add --force')
    expect((await ops(['restore', dir], place.env)).code).toBe(0)
    const again = await ops(['restore', dir], place.env)
    expect(again.stderr).toContain('already holds data')
    const forced = await ops(['restore', dir, '--force'], place.env)
    expect(forced.stderr).toBe('')
    expect(forced.code).toBe(0)
    const wallet = await place.peek((db) =>
      db.selectFrom('wallets').select('balance').where('user_id', '=', u.userId).executeTakeFirstOrThrow(),
    )
    expect(wallet.balance).toBe(1_000_000)

    // A backup goes only into an empty folder.
    expect((await ops(['backup', dir])).stderr).toContain('is not empty: a backup goes into a new or empty folder')
  })

  it('refuses a backup changed and re-hashed by someone who can write to its folder, an unsigned one, and one signed by another key', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const dir = path.join(home, 'to-sign')
    expect((await ops(['backup', dir])).code).toBe(0)
    const place = await freshPlace()
    const copy = (name: string) => {
      const to = path.join(home, name)
      cpSync(dir, to, { recursive: true })
      return to
    }

    // The database changed and the manifest re-hashed: every wallet raised by ₦10,000,000 (SQLite), or the dump's bytes (PostgreSQL).
    const raised = copy('raised')
    if (api.dbKind === 'sqlite') {
      const db = new SQLite(path.join(raised, 'database.sqlite'))
      db.prepare('UPDATE wallets SET balance = balance + 1000000000').run()
      db.close()
    } else
      writeFileSync(
        path.join(raised, 'database.pgdump'),
        Buffer.concat([readFileSync(path.join(raised, 'database.pgdump')), Buffer.from('\0')]),
      )
    rehash(raised)
    const refused = await ops(['restore', raised], place.env)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('manifest.json in')
    expect(refused.stderr).toContain("is not signed by this installation's backup key")

    // No signature at all.
    const unsigned = copy('unsigned')
    unlinkSync(path.join(unsigned, 'manifest.sig'))
    expect((await ops(['restore', unsigned], place.env)).stderr).toContain('has no manifest.sig: an unsigned backup is not restored')

    // Signed, but by a key that is not this installation's; and no key at all.
    const otherKey = path.join(home, 'keys', 'other-key')
    writeFileSync(otherKey, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
    expect((await ops(['restore', dir], { ...place.env, BACKUP_SIGNING_KEY_FILE: otherKey })).stderr).toContain(
      "is not signed by this installation's backup key",
    )
    expect((await ops(['restore', dir], { ...place.env, BACKUP_SIGNING_KEY_FILE: path.join(home, 'keys', 'none') })).stderr).toContain(
      'no backup signing key at',
    )

    // Nothing reached the fresh place; the untouched backup restores, with the wallet as it was.
    expect(await place.peek(tableCount)).toBe(0)
    const restored = await ops(['restore', dir], place.env)
    expect(restored.stderr).toBe('')
    const wallet = await place.peek((db) =>
      db.selectFrom('wallets').select('balance').where('user_id', '=', u.userId).executeTakeFirstOrThrow(),
    )
    expect(wallet.balance).toBe(1_000_000)
  })

  it('refuses links in the photo folder, at backup and at restore, even in a backup signed by the right key', async () => {
    const hostFile = path.join(home, 'host-secret.txt')
    writeFileSync(hostFile, 'a file of the host, not a photo')
    // At backup: a symbolic link, then a hard link, in the upload folder.
    const uploads = mkdtempSync(path.join(home, 'linked-uploads-'))
    mkdirSync(path.join(uploads, 'ab'))
    writeFileSync(path.join(uploads, 'ab', 'real.jpg'), 'photo')
    symlinkSync(hostFile, path.join(uploads, 'ab', 'link.jpg'))
    const bySymlink = await ops(['backup', path.join(home, 'symlinked')], { UPLOAD_DIR: uploads })
    expect(bySymlink.code).toBe(2)
    expect(bySymlink.stderr).toContain('link.jpg is a link or not a plain file')
    unlinkSync(path.join(uploads, 'ab', 'link.jpg'))
    linkSync(hostFile, path.join(uploads, 'ab', 'hard.jpg'))
    const byHardlink = await ops(['backup', path.join(home, 'hardlinked')], { UPLOAD_DIR: uploads })
    expect(byHardlink.code).toBe(2)
    expect(byHardlink.stderr).toContain('hard.jpg has other names (a hard link)')

    // At restore: a photo swapped for a link to a host file, the manifest re-hashed and even signed.
    const u = await walletUser(api, { balance: 1_000 })
    await photo(api, u.token)
    const dir = path.join(home, 'photo-link')
    expect((await ops(['backup', dir])).code).toBe(0)
    const onePhoto = filesUnder(path.join(dir, 'uploads'))[0]
    unlinkSync(path.join(dir, 'uploads', onePhoto))
    symlinkSync(hostFile, path.join(dir, 'uploads', onePhoto))
    rehash(dir)
    resign(dir)
    const place = await freshPlace()
    const refused = await ops(['restore', dir], place.env)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`uploads/${onePhoto} is a link or not a plain file`)
    expect(filesUnder(place.uploads)).toEqual([])
  })

  it.runIf(process.env.TEST_DB === 'postgres')(
    'restores PostgreSQL as the application’s role: a superuser only with --allow-superuser',
    async () => {
      const dir = path.join(home, 'as-superuser')
      expect((await ops(['backup', dir])).code).toBe(0)
      const place = await freshPlace()
      const asSuper = { ...place.env, DATABASE_URL: place.database.url }
      const refused = await ops(['restore', dir], asSuper)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toMatch(/DATABASE_URL signs in as \S+, a superuser: restore as the application's own role/)
      expect(await place.peek(tableCount)).toBe(0)
      const allowed = await ops(['restore', dir, '--allow-superuser'], asSuper)
      expect(allowed.stderr).toBe('')
      expect(allowed.code).toBe(0)
    },
  )

  it("says where it looked, and how to install them, when PostgreSQL's tools are missing", () => {
    expect(() => findPgTool('pg_no_such_tool', { PATH: '' })).toThrow(
      /pg_no_such_tool was not found \(looked in \/usr\/lib\/postgresql\/\*\/bin, \/usr\/bin, \/usr\/local\/bin and PATH\)\. Install the PostgreSQL client \(Debian: apt-get install postgresql-client\) or set PG_BIN_DIR\./,
    )
  })
})
