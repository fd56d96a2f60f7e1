// The console's dashboard with a business's worth of books: ORDERS orders and as many withdrawals
// over WALLETS wallets, spread over the last weeks (some waiting, some late, some decided, some paid
// today), each wallet's entries summing to its balances so the books balance. Then web + api CPU a
// dashboard page (utime + stime of both processes from /proc), signed in through the console's own
// sign-in form. Budget: ≤ 10 ms a page.
//
// The rows are copies of the seeded person's own order, withdrawal, entries and events (every
// column the app wrote), written straight into the throw-away database: thousands of sign-ups and
// sales through the api would take the bench longer than the measurement.
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import path from 'node:path'
import pg from 'pg'
import { staffAdminAccount } from '../lib/staff-admin.mjs'
import { assertLocal, cpuMs, root, sleep, verdict } from './lib.mjs'

const ORDERS = 10_000
const WALLETS = 1_000
const DAY = 86_400_000

/** One way to run SQL on either database: `?` placeholders, rows back. */
async function openDb(stack) {
  if (stack.kind === 'postgres') {
    const client = new pg.Client({ connectionString: stack.databaseUrl })
    await client.connect()
    return {
      all: async (text, params = []) => {
        let n = 0
        return (
          await client.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows
      },
      close: () => client.end(),
    }
  }
  const SQLite = createRequire(path.join(root, 'package.json'))('better-sqlite3')
  const db = new SQLite(stack.databaseUrl.replace(/^file:/, ''))
  db.pragma('busy_timeout = 5000')
  return {
    all: async (text, params = []) => {
      const st = db.prepare(text)
      return st.reader ? st.all(...params) : (st.run(...params), [])
    },
    close: () => db.close(),
  }
}

/** Multi-row inserts of plain objects (one column list for all), a few hundred rows a statement. */
async function insertRows(db, table, rows) {
  if (!rows.length) return
  const cols = Object.keys(rows[0])
  const per = Math.max(1, Math.floor(900 / cols.length))
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per)
    const values = chunk.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ')
    await db.all(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values}`,
      chunk.flatMap((r) => cols.map((c) => r[c])),
    )
  }
}

/** ORDERS orders and withdrawals, with their entries and events, copied from the seeded person's. */
export async function seedBooks(stack, { orders = ORDERS, wallets = WALLETS } = {}) {
  const db = await openDb(stack)
  try {
    const [user] = await db.all('SELECT * FROM users LIMIT 1')
    const [wallet] = await db.all('SELECT * FROM wallets WHERE user_id = ?', [user.id])
    const [order] = await db.all('SELECT * FROM orders LIMIT 1')
    const [withdrawal] = await db.all('SELECT * FROM withdrawals LIMIT 1')
    const [log] = await db.all('SELECT * FROM balance_logs LIMIT 1')
    const [orderEvent] = await db.all('SELECT * FROM order_events LIMIT 1')
    const [withdrawalEvent] = await db.all('SELECT * FROM withdrawal_events LIMIT 1')
    if (!order || !withdrawal || !log || !orderEvent || !withdrawalEvent)
      throw new Error('dashboard bench: the seeded person has no order or withdrawal to copy')
    const now = Date.now()
    const users = []
    const walletRows = []
    for (let i = 0; i < wallets; i++) {
      const id = randomUUID()
      users.push({ ...user, id, email: `books.${i}.${id.slice(0, 8)}@example.com`, google_sub: null, google_email: null })
      // The entries' totals (decision 050) start at zero too: the database adds each entry written below.
      walletRows.push({
        ...wallet,
        user_id: id,
        balance: 0,
        frozen: 0,
        ...('entries_amount' in wallet ? { entries_amount: 0, entries_frozen: 0 } : {}),
      })
    }
    await insertRows(db, 'users', users)
    await insertRows(db, 'wallets', walletRows)
    const orderRows = []
    const orderEvents = []
    const withdrawalRows = []
    const withdrawalEvents = []
    const logs = []
    const seq = new Map()
    const nextSeq = (userId) => {
      const n = (seq.get(userId) ?? 0) + 1
      seq.set(userId, n)
      return n
    }
    // Most are settled; a few hundred wait (some past their ETA); some were decided or paid today.
    const statusOf = (i, open, done) => (i % 40 === 0 ? open : done)
    for (let i = 0; i < orders; i++) {
      const owner = users[i % wallets].id
      const at = now - (i % 28) * DAY - (i % 97) * 60_000
      const id = randomUUID()
      const status = statusOf(i, 'pending', i % 5 === 0 ? 'rejected' : 'completed')
      const decided = status === 'pending' ? null : at + (i % 90) * 60_000
      orderRows.push({
        ...order,
        id,
        order_no: `B${String(i).padStart(9, '0')}`,
        user_id: owner,
        request_id: randomUUID().replace(/-/g, ''),
        proof_image_id: null,
        claimed_by: null,
        claim_expires_at: null,
        status,
        created_at: at,
        updated_at: at,
        // The first decision, as addOrderEvent keeps it (decision 050), when the schema has it.
        ...('decided_at' in order ? { decided_at: decided } : {}),
      })
      orderEvents.push({ ...orderEvent, id: randomUUID(), order_id: id, seq: 1, status: 'pending', actor: 'you', at })
      if (decided !== null) {
        orderEvents.push({ ...orderEvent, id: randomUUID(), order_id: id, seq: 2, status, actor: 'operator', at: decided })
      }
      const wid = randomUUID()
      const wstatus = statusOf(i + 7, 'pending', i % 9 === 0 ? 'failed' : 'success')
      withdrawalRows.push({
        ...withdrawal,
        id: wid,
        user_id: owner,
        request_id: randomUUID().replace(/-/g, ''),
        reference: null,
        payout_reference: null,
        transfer_code: null,
        status: wstatus,
        expected_by: at + DAY,
        created_at: at,
        updated_at: at,
      })
      withdrawalEvents.push({ ...withdrawalEvent, id: randomUUID(), withdrawal_id: wid, status: 'pending', at })
      if (wstatus !== 'pending')
        withdrawalEvents.push({ ...withdrawalEvent, id: randomUUID(), withdrawal_id: wid, status: wstatus, at: at + 3_600_000 })
      // The sale credits the wallet, the withdrawal takes the same back: every wallet stays at zero.
      const amount = 1_000 + (i % 500) * 100
      for (const [signed, refType, ref] of [
        [amount, 'order', id],
        [-amount, 'withdrawal', wid],
      ]) {
        logs.push({
          ...log,
          id: randomUUID(),
          user_id: owner,
          seq: nextSeq(owner),
          amount: signed,
          balance_after: signed > 0 ? amount : 0,
          frozen_change: 0,
          frozen_after: 0,
          ref_type: refType,
          ref_id: ref,
          idempotency_key: `bench:${randomUUID()}`,
          created_at: at,
        })
      }
    }
    await insertRows(db, 'orders', orderRows)
    await insertRows(db, 'order_events', orderEvents)
    await insertRows(db, 'withdrawals', withdrawalRows)
    await insertRows(db, 'withdrawal_events', withdrawalEvents)
    await insertRows(db, 'balance_logs', logs)
    // Each wallet's number of its last entry, as the ledger keeps it (decision 068).
    if ('last_seq' in wallet)
      await db.all('UPDATE wallets SET last_seq = (SELECT coalesce(max(seq), 0) FROM balance_logs b WHERE b.user_id = wallets.user_id)')
    // The planner's statistics, as a database that grew to this size would have them.
    await db.all('ANALYZE')
  } finally {
    await db.close()
  }
}

/** A console cookie for a new staff admin, through /ops/login (password, then the code). */
async function staffCookie(stack) {
  const account = await staffAdminAccount(stack.api, stack.adminToken)
  const post = async (fields, cookie) => {
    const res = await fetch(assertLocal(`${stack.base}/ops/login`), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ redirectTo: '/ops', ...fields }),
      redirect: 'manual',
    })
    await res.arrayBuffer()
    const set = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    return set || cookie
  }
  const afterPassword = await post({ intent: 'password', email: account.email, password: account.password })
  // The set-up used this step's code and a code is good once: the next step's (accepted one early).
  const signedIn = await post({ intent: 'code', code: account.codeAt(Date.now() + 30_000) }, afterPassword)
  const first = await fetch(`${stack.base}/ops`, { headers: { cookie: signedIn }, redirect: 'manual' })
  await first.arrayBuffer()
  if (first.status !== 200) throw new Error(`dashboard bench: /ops answered ${first.status} after the console sign-in`)
  const steady = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return steady || signedIn
}

// At least `minimum` pages measured (up to `longest` seconds): /proc's clock ticks every 10 ms, so a
// figure over a handful of slow pages on a busy machine would be mostly rounding.
export async function dashboardBudgets(stack, { seconds = 4, warm = 100, requests = 400, minimum = 30, longest = 30 } = {}) {
  const started = Date.now()
  await seedBooks(stack)
  console.log(`  ${ORDERS} orders and withdrawals over ${WALLETS} wallets written in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const cookie = await staffCookie(stack)
  const url = assertLocal(`${stack.base}/ops`)
  const once = async () => {
    const res = await fetch(url, { headers: { cookie, 'accept-encoding': 'gzip, deflate, br' }, redirect: 'manual' })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`dashboard bench: /ops answered ${res.status}`)
  }
  const run = async (count, until, atLeast = 0) => {
    const hardStop = Date.now() + longest * 1000
    let n = 0
    while (n < count && (Date.now() < until || (n < atLeast && Date.now() < hardStop))) {
      await once()
      n++
    }
    return n
  }
  await run(warm, Date.now() + seconds * 1000)
  await sleep(50)
  const [webBefore, apiBefore] = [cpuMs(stack.webPid), cpuMs(stack.apiPid)]
  const served = await run(requests, Date.now() + seconds * 1000, minimum)
  const [web, api] = [(cpuMs(stack.webPid) - webBefore) / served, (cpuMs(stack.apiPid) - apiBefore) / served]
  const ms = web + api
  console.log(
    `  ${stack.kind}: console dashboard web + api ${ms.toFixed(2)} ms a page (web ${web.toFixed(2)}, api ${api.toFixed(2)}; ${served} pages)`,
  )
  return [
    {
      part: 'dashboard',
      db: stack.kind,
      budget: `console dashboard web + api CPU ≤ 10 ms a page (${ORDERS} orders and withdrawals)`,
      figure: `${ms.toFixed(2)} ms`,
      verdict: verdict(ms, 10, { unit: ' ms' }),
    },
  ]
}
