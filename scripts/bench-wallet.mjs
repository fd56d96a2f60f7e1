// The wallet over HTTP, on SQLite and on PostgreSQL, at 50 clients: wallet movements per second
// (an admin's adjustments, below the PIN hash) and withdrawals per second (bound by the PIN hash).
// Measures, never asserts. Starts its own api process (production hashing) on a throw-away
// database, 127.0.0.1 only, bounded to ~10 s of load per part and database. Money moves as a staff
// admin signed in the way the console signs in (set-up link, password, authenticator code): the
// ADMIN_TOKEN only makes that first admin, as `npm run ops -- staff add` does.
//   node scripts/bench-wallet.mjs [--clients 50] [--seconds 10] [--db sqlite,postgres] [--parts movements,withdrawals]
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { bundleProcesses, freePort, startApiProcess } from '../tests/support/api-process.mjs'
import { staffAdminToken } from './lib/staff-admin.mjs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const clients = Number(arg('clients', 50))
const seconds = Math.min(30, Number(arg('seconds', 10)))
const kinds = arg('db', 'sqlite,postgres').split(',')
const parts = arg('parts', 'movements,withdrawals').split(',')
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const work = path.join(root, 'tmp', 'bench-wallet')
const ADMIN = randomBytes(24).toString('hex')
const PIN = '204816'

rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
const bundle = (await bundleProcesses('bench-wallet')).api

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const newRequestId = () => randomUUID().replace(/-/g, '')
/** Each client's loop for `seconds`: answers per second of code 200, p50, p99 and the answers by code. */
async function measure(people, once) {
  const times = []
  const codes = new Map()
  const stopAt = Date.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    people.map(async (p, i) => {
      for (let n = 0; Date.now() < stopAt; n++) {
        const t = performance.now()
        const res = await once(p, i, n)
        times.push(performance.now() - t)
        codes.set(res.code, (codes.get(res.code) ?? 0) + 1)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  times.sort((a, b) => a - b)
  const pct = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1)
  const ok = codes.get(200) ?? 0
  return {
    perSecond: (ok / elapsed).toFixed(0),
    ok,
    all: times.length,
    p50: pct(0.5),
    p99: pct(0.99),
    codes: JSON.stringify(Object.fromEntries(codes)),
  }
}

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
  const staffToken = await staffAdminToken(base, ADMIN)
  const asStaff = { authorization: `Bearer ${staffToken}` }
  // Four at a time: the api's hash gate (rightly) turns a burst of 50 PIN hashes into 429s.
  for (let i = 0; i < people.length; i += 4) {
    await Promise.all(
      people.slice(i, i + 4).map(async (p, j) => {
        const credit = await call(
          '/admin/wallet/adjust',
          { userId: p.id, amount: 40_000_000, reason: 'bench', requestId: newRequestId() },
          asStaff,
        )
        if (credit.code !== 200 || credit.data.type === 'adjustment_request') throw new Error(`wallet/adjust: ${credit.msg}`)
        if (!parts.includes('withdrawals')) return
        await call('/v1/user/setPin', { pin: PIN }, { token: p.token })
        const card = await call(
          '/v1/bankCard/add',
          { bankCode: '058', accountNumber: nuban('058', String(i + j + 1).padStart(9, '0')), accountName: 'Bench Person', pin: PIN },
          { token: p.token },
        )
        if (card.code !== 200) throw new Error(`bankCard/add: ${card.msg}`)
        p.card = card.data.id
      }),
    )
  }

  const lines = []
  if (parts.includes('movements')) {
    // Each client credits and debits its own person's wallet in turn, as an admin's adjustment does
    // from the console: staff session check, ledger entry, audit line; no PIN hash in the path.
    const before = load()
    const r = await measure(people, (p, i, n) =>
      call(
        '/admin/wallet/adjust',
        { userId: p.id, amount: n % 2 ? -1_000 : 1_000, reason: 'bench movement', requestId: newRequestId() },
        asStaff,
      ),
    )
    lines.push(
      `${kind.padEnd(9)} ${clients} clients, ${seconds} s: ${r.perSecond} wallet movements/s (${r.ok} ok of ${r.all}; answers ${r.codes}), p50 ${r.p50} ms, p99 ${r.p99} ms; load average ${before} → ${load()}`,
    )
  }
  if (parts.includes('withdrawals')) {
    const before = load()
    const r = await measure(people, (p) =>
      call('/v1/withdraw/create', { bankCardId: p.card, amount: 100_000, pin: PIN, requestId: newRequestId() }, { token: p.token }),
    )
    lines.push(
      `${kind.padEnd(9)} ${clients} clients, ${seconds} s: ${r.perSecond} withdrawals/s (${r.ok} ok of ${r.all}; answers ${r.codes}), p50 ${r.p50} ms, p99 ${r.p99} ms; load average ${before} → ${load()}`,
    )
  }
  const books = await fetch(`${base}/admin/books`, { headers: asStaff }).then((r) => r.json())
  api.kill('SIGTERM')
  await new Promise((r) => api.once('exit', r))
  await dropPg?.()
  for (const line of lines) console.log(`${line}; books ${books.data.mismatches.length === 0 ? 'balance' : 'DO NOT balance'}`)
}

for (const kind of kinds) await run(kind)
