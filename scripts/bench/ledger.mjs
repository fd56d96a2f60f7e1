// The ledger below the PIN hash: wallet movements per second through the real write transaction
// (api/db/transaction.ts) and the real ledger (api/services/ledger.ts: lock the wallet, move), on a
// throw-away migrated database, from 50 concurrent async clients in this process, each crediting
// and debiting its own wallet in turn. The PIN check (deliberately slow) is not in the path.
// Budgets: ≥ 1 000 movements/s with p99 ≤ 50 ms, on SQLite and on PostgreSQL.
import { randomUUID } from 'node:crypto'
import { apiModules, percentile, throwAwayDatabase, verdict } from './lib.mjs'

async function runOn(kind, lib, { clients, seconds }) {
  const { url, drop } = await throwAwayDatabase(kind, 'ledger')
  const { db } = lib.createDb(url)
  try {
    await lib.migrateToLatest(db)
    const now = Date.now()
    const people = Array.from({ length: clients }, () => randomUUID())
    await db
      .insertInto('users')
      .values(
        people.map((id, i) => ({
          id,
          email: `ledger.${i}.${now}@example.com`,
          password_hash: null,
          user_name: 'bench',
          head_img: null,
          google_sub: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute()
    const movement = (userId, amount) =>
      lib.writeTransaction(db, kind, async (trx) => {
        const t = Date.now()
        await lib.lockWallet(trx, kind, userId, 'NGN', t)
        return lib.move(
          trx,
          { userId, type: 'adjustment', amount, refType: 'adjustment', note: 'bench', key: `bench:${randomUUID()}` },
          'NGN',
          t,
        )
      })
    for (const id of people) await movement(id, 1_000_000)

    const times = []
    let failed = 0
    const stopAt = Date.now() + seconds * 1000
    const started = performance.now()
    await Promise.all(
      people.map(async (userId) => {
        for (let i = 0; Date.now() < stopAt; i++) {
          const t = performance.now()
          try {
            await movement(userId, i % 2 ? -100 : 100)
            times.push(performance.now() - t)
          } catch {
            failed++
          }
        }
      }),
    )
    const elapsed = (performance.now() - started) / 1000
    const perSecond = times.length / elapsed
    const p99 = percentile(times, 0.99)
    console.log(
      `  ${kind.padEnd(8)} ${clients} clients, ${seconds} s: ${perSecond.toFixed(0)} movements/s (${times.length} done${failed ? `, ${failed} failed` : ''}), p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    )
    return [
      {
        part: 'ledger',
        db: kind,
        budget: `wallet movements ≥ 1 000/s at ${clients} clients`,
        figure: `${perSecond.toFixed(0)}/s`,
        verdict: verdict(perSecond, 1000, { atMost: false, unit: '/s' }),
      },
      {
        part: 'ledger',
        db: kind,
        budget: 'wallet movement p99 ≤ 50 ms',
        figure: `${p99.toFixed(1)} ms`,
        verdict: verdict(p99, 50, { unit: ' ms' }),
      },
    ]
  } finally {
    await db.destroy()
    await drop()
  }
}

export async function ledgerBudgets(kinds, { clients = 50, seconds = 10 } = {}) {
  const lib = await apiModules('ledger', {
    './api/db/connect': ['createDb'],
    './api/db/migrate': ['migrateToLatest'],
    './api/db/transaction': ['writeTransaction'],
    './api/services/ledger': ['lockWallet', 'move'],
  })
  const rows = []
  for (const kind of kinds) rows.push(...(await runOn(kind, lib, { clients, seconds })))
  return rows
}
