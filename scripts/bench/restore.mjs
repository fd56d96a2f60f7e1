// Restoring a backup: a throw-away migrated database with 100 000 ledger entries (1 000 wallets of
// 100 entries, the books balanced) is backed up with `npm run ops -- backup` and restored with
// `npm run ops -- restore` into a fresh database; the figure is the restore as an operator runs it
// (the process from start to exit: the manifest check, the copy or pg_restore, the count check).
// Budget: ≤ 60 s on SQLite and on PostgreSQL.
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { apiModules, root, throwAwayDatabase, verdict, work } from './lib.mjs'

const WALLETS = 1_000
const ENTRIES = 100
const BUDGET_S = 60

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
        .values(
          users.map((u) => ({ user_id: u.id, currency: 'NGN', balance: ENTRIES * 100, frozen: 0, last_seq: ENTRIES, updated_at: now })),
        )
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
    // The bench's own signing key, never the installation's.
    env: { PATH: process.env.PATH, BACKUP_SIGNING_KEY_FILE: path.join(work, 'restore', 'backup-signing-key'), ...env },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`ops ${args[0]} failed: ${result.stderr}`)
  return (performance.now() - started) / 1000
}

async function runOn(kind, lib) {
  const source = await throwAwayDatabase(kind, path.join('restore', 'source'))
  const target = await throwAwayDatabase(kind, path.join('restore', 'target'))
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
    // The bench's throw-away server signs in as its superuser: allowed here, and only here.
    const restoreS = ops(['restore', folder, ...(kind === 'postgres' ? ['--allow-superuser'] : [])], {
      DATABASE_URL: target.url,
      UPLOAD_DIR: uploads,
    })
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
  const lib = await apiModules('restore', { './api/db/connect': ['createDb'], './api/db/migrate': ['migrateToLatest'] })
  const rows = []
  for (const kind of kinds) rows.push(await runOn(kind, lib))
  return rows
}
