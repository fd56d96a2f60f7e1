// Restoring a backup: a throw-away migrated database with 100 000 ledger entries (1 000 wallets of
// 100 entries, the books balanced) is backed up with `npm run ops -- backup` and restored with
// `npm run ops -- restore` into a fresh database; the figure is the restore as an operator runs it
// (the process from start to exit: the manifest check, the copy or pg_restore, the count check).
// Budget: ≤ 60 s on SQLite and on PostgreSQL.
import { spawnSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import pg from 'pg'
import { work } from './app.mjs'
import { root, verdict } from './lib.mjs'

const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres'
const WALLETS = 1_000
const ENTRIES = 100
const BUDGET_S = 60

async function apiModules() {
  const outfile = path.join(work, 'restore-entry.mjs')
  await build({
    stdin: {
      contents: ["export { createDb } from './api/db/connect'", "export { migrateToLatest } from './api/db/migrate'"].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  })
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)
}

async function throwAway(kind, name) {
  if (kind === 'sqlite') {
    const dir = path.join(work, 'restore', name)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    return { url: `file:${path.join(dir, 'cardlane.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const db = `cardlane_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: PG_ADMIN })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${db}"`)
  await admin.end()
  return {
    url: `postgres://postgres@127.0.0.1:5432/${db}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`)
      await c.end()
    },
  }
}

/** 1 000 people, each with a wallet and 100 credits of 1.00 whose sum is the balance. */
async function seedLedger(db) {
  const now = Date.now()
  for (let w = 0; w < WALLETS; w += 100) {
    const users = Array.from({ length: 100 }, (_, i) => ({
      id: randomUUID(),
      email: `restore.${w + i}.${now}@example.com`,
      password_hash: null,
      user_name: 'bench',
      head_img: null,
      google_sub: null,
      created_at: now,
      updated_at: now,
    }))
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute()
      await trx
        .insertInto('wallets')
        .values(users.map((u) => ({ user_id: u.id, currency: 'NGN', balance: ENTRIES * 100, frozen: 0, updated_at: now })))
        .execute()
      for (let batch = 0; batch < users.length; batch += 5) {
        const rows = users.slice(batch, batch + 5).flatMap((u) =>
          Array.from({ length: ENTRIES }, (_, seq) => ({
            id: randomUUID(),
            user_id: u.id,
            seq: seq + 1,
            type: 'adjustment',
            amount: 100,
            balance_after: (seq + 1) * 100,
            frozen_change: 0,
            frozen_after: 0,
            ref_type: 'adjustment',
            ref_id: null,
            note: 'bench',
            idempotency_key: `bench:${randomUUID()}`,
            created_at: now,
          })),
        )
        await trx.insertInto('balance_logs').values(rows).execute()
      }
    })
  }
}

function ops(args, env) {
  const started = performance.now()
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/ops.mjs'), ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`ops ${args[0]} failed: ${result.stderr}`)
  return (performance.now() - started) / 1000
}

async function runOn(kind, lib) {
  const source = await throwAway(kind, 'source')
  const target = await throwAway(kind, 'target')
  const folder = path.join(work, 'restore', `backup-${kind}`)
  const uploads = path.join(work, 'restore', `uploads-${kind}`)
  rmSync(folder, { recursive: true, force: true })
  rmSync(uploads, { recursive: true, force: true })
  try {
    const { db } = lib.createDb(source.url)
    try {
      await lib.migrateToLatest(db)
      await seedLedger(db)
    } finally {
      await db.destroy()
    }
    const backupS = ops(['backup', folder], { DATABASE_URL: source.url, UPLOAD_DIR: path.join(uploads, 'none') })
    const restoreS = ops(['restore', folder], { DATABASE_URL: target.url, UPLOAD_DIR: uploads })
    console.log(`  ${kind.padEnd(8)} ${WALLETS * ENTRIES} ledger rows: backup ${backupS.toFixed(1)} s, restore ${restoreS.toFixed(1)} s`)
    return {
      part: 'restore',
      db: kind,
      budget: `restore of a backup of ${(WALLETS * ENTRIES).toLocaleString('en')} ledger rows ≤ ${BUDGET_S} s`,
      figure: `${restoreS.toFixed(1)} s (backup ${backupS.toFixed(1)} s)`,
      verdict: verdict(restoreS, BUDGET_S, { unit: ' s' }),
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
    rmSync(uploads, { recursive: true, force: true })
    await source.drop()
    await target.drop()
  }
}

export async function restoreBudgets(kinds) {
  const lib = await apiModules()
  const rows = []
  for (const kind of kinds) rows.push(await runOn(kind, lib))
  return rows
}
