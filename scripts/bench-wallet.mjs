// Withdrawals per second, on SQLite and on PostgreSQL, at 50 clients (issue: wallet bench).
// Measures, never asserts. Starts its own api process (production hashing: argon2id PIN checks)
// on a throw-away database, 127.0.0.1 only, bounded to ~10 s of load per database.
//   node scripts/bench-wallet.mjs [--clients 50] [--seconds 10] [--db sqlite,postgres]
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { bundleProcesses, freePort, startApiProcess } from '../tests/support/api-process.mjs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const clients = Number(arg('clients', 50))
const seconds = Math.min(30, Number(arg('seconds', 10)))
const kinds = arg('db', 'sqlite,postgres').split(',')
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const work = path.join(root, 'tmp', 'bench-wallet')
const ADMIN = randomBytes(24).toString('hex')
const PIN = '204816'

rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const bundle = (await bundleProcesses('bench-wallet')).api

const nuban = (bank, serial) => {
  const w = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3]
  const sum = [...(bank + serial)].reduce((a, d, i) => a + Number(d) * w[i], 0)
  return serial + ((10 - (sum % 10)) % 10)
}

async function run(kind) {
  let url
  let dropPg
  if (kind === 'sqlite') url = `file:${path.join(work, 'bench.db')}`
  else {
    const name = `cardlane_bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    await admin.end()
    url = `postgres://postgres@127.0.0.1:5432/${name}`
    dropPg = async () => {
      const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await c.end()
    }
  }
  const port = await freePort()
  const api = await startApiProcess({ bundle, port, databaseUrl: url, env: { ADMIN_TOKEN: ADMIN }, stdio: 'ignore' })
  const base = `http://127.0.0.1:${port}`
  const call = async (route, body, headers = {}) => {
    const res = await fetch(base + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return res.json()
  }

  // People straight in the database (sign-up is not what is measured), then PIN, card, credit via the api.
  const now = Date.now()
  const people = Array.from({ length: clients }, (_, i) => ({
    id: randomUUID(),
    email: `bench.${i}.${now}@example.com`,
    token: randomBytes(32).toString('base64url'),
  }))
  const rows = people.map((p) => [p.id, p.email, createHash('sha256').update(p.token).digest('base64url')])
  if (kind === 'sqlite') {
    const db = new Database(url.slice(5))
    const u = db.prepare(
      'insert into users (id, email, password_hash, user_name, head_img, google_sub, created_at, updated_at) values (?, ?, null, ?, null, null, ?, ?)',
    )
    const s = db.prepare('insert into sessions (token_hash, user_id, created_at, expires_at, revoked_at) values (?, ?, ?, ?, null)')
    for (const [id, email, hash] of rows) {
      u.run(id, email, 'bench', now, now)
      s.run(hash, id, now, now + 86_400_000)
    }
    db.close()
  } else {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    for (const [id, email, hash] of rows) {
      await c.query(
        'insert into users (id, email, password_hash, user_name, head_img, google_sub, created_at, updated_at) values ($1, $2, null, $3, null, null, $4, $4)',
        [id, email, 'bench', now],
      )
      await c.query('insert into sessions (token_hash, user_id, created_at, expires_at, revoked_at) values ($1, $2, $3, $4, null)', [
        hash,
        id,
        now,
        now + 86_400_000,
      ])
    }
    await c.end()
  }
  // Four at a time: the api's hash gate (rightly) turns a burst of 50 PIN hashes into 429s.
  for (let i = 0; i < people.length; i += 4) {
    await Promise.all(
      people.slice(i, i + 4).map(async (p, j) => {
        await call('/v1/user/setPin', { pin: PIN }, { token: p.token })
        const card = await call(
          '/v1/bankCard/add',
          { bankCode: '058', accountNumber: nuban('058', String(i + j + 1).padStart(9, '0')), accountName: 'Bench Person', pin: PIN },
          { token: p.token },
        )
        if (card.code !== 200) throw new Error(`bankCard/add: ${card.msg}`)
        p.card = card.data.id
        await call(
          '/admin/wallet/adjust',
          { userId: p.id, amount: 40_000_000, reason: 'bench', requestId: randomUUID().replace(/-/g, '') },
          { authorization: `Bearer ${ADMIN}` },
        )
      }),
    )
  }

  const times = []
  const codes = new Map()
  const stopAt = Date.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    people.map(async (p) => {
      while (Date.now() < stopAt) {
        const t = performance.now()
        const res = await call(
          '/v1/withdraw/create',
          { bankCardId: p.card, amount: 100_000, pin: PIN, requestId: randomUUID().replace(/-/g, '') },
          { token: p.token },
        )
        times.push(performance.now() - t)
        codes.set(res.code, (codes.get(res.code) ?? 0) + 1)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const books = await fetch(`${base}/admin/books`, { headers: { authorization: `Bearer ${ADMIN}` } }).then((r) => r.json())
  api.kill('SIGTERM')
  await new Promise((r) => api.once('exit', r))
  await dropPg?.()
  times.sort((a, b) => a - b)
  const pct = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(0)
  const ok = codes.get(200) ?? 0
  console.log(
    `${kind.padEnd(9)} ${clients} clients, ${seconds} s: ${(ok / elapsed).toFixed(1)} withdrawals/s (${ok} ok of ${times.length}; answers ${JSON.stringify(Object.fromEntries(codes))}), p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; books ${books.data.mismatches.length === 0 ? 'balance' : 'DO NOT balance'}`,
  )
}

for (const kind of kinds) await run(kind)
