// Payouts through a provider, measured against the local fake Paystack (tests/support/paystack-fake.ts):
// the time from Withdraw to paid (the real worker's interval, the transfer call and the webhook),
// and how many payouts a second the worker sustains. Measures, never asserts; a throw-away SQLite
// file (or --db postgres: a throw-away database on 127.0.0.1), 127.0.0.1 only.
//   node scripts/bench-payouts.mjs [--withdrawals 400] [--timed 10] [--db sqlite|postgres]
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { esbuildTarget } from './lib/node-version.mjs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const total = Math.min(2_000, Number(arg('withdrawals', 400)))
const timed = Math.min(30, Number(arg('timed', 10)))
const kind = arg('db', 'sqlite')
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const work = path.join(root, 'tmp', 'bench-payouts')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })

// The api's own modules, bundled once so the fake, the api and the worker share one copy.
const entry = `
export { startApi } from './api/server'
export { runPayoutsOnce } from './api/services/payouts'
export { createUser } from './api/models/users'
export { createSession } from './api/models/sessions'
export { move } from './api/services/ledger'
export { writeTransaction } from './api/db/transaction'
export { createMemoryMailer } from './api/lib/mailer'
export { startFakePaystack, FAKE_PAYSTACK_SECRET } from './tests/support/paystack-fake'
export { createTestDatabase } from './tests/support/db'
`
await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: esbuildTarget,
  packages: 'external',
  outfile: path.join(work, 'bundle.mjs'),
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'error',
})
if (kind === 'postgres') process.env.TEST_DB = 'postgres'
const m = await import(path.join(work, 'bundle.mjs'))
const { pino } = await import('pino')

const fake = await m.startFakePaystack()
const database = await m.createTestDatabase()
const PIN = '204816'
const start = (worker) =>
  m.startApi({
    env: {},
    databaseUrl: database.url,
    port: 0,
    host: '127.0.0.1',
    mailer: m.createMemoryMailer(),
    logger: pino({ level: 'warn' }),
    housekeeping: false,
    payoutWorker: worker,
    hashCost: 'test',
    config: {
      authRateLimit: 1_000_000,
      payouts: {
        provider: 'paystack',
        paystackSecretKey: m.FAKE_PAYSTACK_SECRET,
        paystackBaseUrl: fake.url,
        autoPayoutMax: 1e12,
        pollSeconds: 60,
        requestTimeoutMs: 5_000,
        leaseMs: 60_000,
      },
    },
  })

const nuban = (bank, serial) => {
  const w = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3]
  const d = [...(bank + serial)].map(Number)
  const sum = d.reduce((a, x, i) => a + x * w[i], 0)
  return serial + ((10 - (sum % 10)) % 10)
}

async function person(api, i) {
  const now = Date.now()
  const user = await m.createUser(api.db, { email: `bench.${i}.${now}@example.com`, user_name: 'Adaeze Obi' }, now)
  const token = await m.createSession(api.db, user.id, now, 86_400_000)
  const post = async (p, body) => {
    const res = await fetch(`${api.url}${p}`, {
      method: 'POST',
      headers: { token, clientType: 'h5', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = await res.json()
    if (json.code !== 200) throw new Error(`${p}: ${JSON.stringify(json)}`)
    return json.data
  }
  await post('/v1/user/setPin', { pin: PIN })
  const card = await post('/v1/bankCard/add', { bankCode: '058', accountNumber: nuban('058', String(100_000_000 + i).slice(-9)), pin: PIN })
  await m.writeTransaction(api.db, api.dbKind, (trx) =>
    m.move(trx, { userId: user.id, type: 'adjustment', amount: 1e10, key: `bench:${user.id}` }, 'NGN', now),
  )
  let n = 0
  return (amount) =>
    post('/v1/withdraw/create', { bankCardId: card.id, amount, pin: PIN, requestId: `bench${user.id.replace(/-/g, '')}${++n}` })
}

const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const p = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]
  return `n=${s.length} p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms`
}

// 1. Withdraw → paid, with the api's own worker running (its pass every 2–3 s) and the fake
// answering `pending`, then sending transfer.success to the api as soon as the transfer exists.
{
  const api = await start(true)
  fake.webhookUrl = `${api.url}/v1/webhooks/paystack`
  const withdraw = await person(api, 0)
  const times = []
  for (let i = 0; i < timed; i++) {
    const t0 = performance.now()
    const w = await withdraw(200_000)
    while (!fake.transfers.has(w.id)) await new Promise((r) => setTimeout(r, 20))
    await fake.settle(w.id, 'success')
    let status = ''
    while (status !== 'success') {
      status = (await api.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status
      if (status !== 'success') await new Promise((r) => setTimeout(r, 20))
    }
    times.push(Math.round(performance.now() - t0))
  }
  console.log(`Withdraw → paid (worker every 2–3 s, webhook at once): ${ms(times)}`)
  await api.close()
}

// 2. Throughput: `total` withdrawals due at once, passes run back to back (no interval), the fake
// answering `success` straight away (each payout: recipient + transfer call + one transaction).
{
  const api = await start(false)
  fake.answerWith = 'success'
  const makers = await Promise.all(Array.from({ length: 20 }, (_, i) => person(api, i + 1)))
  for (let i = 0; i < total; i += 20) await Promise.all(makers.map((w) => w(150_000)))
  const before = fake.transferCalls.length
  const t0 = performance.now()
  let passes = 0
  for (;;) {
    const { claimed } = await m.runPayoutsOnce(api.deps)
    passes++
    if (claimed === 0) break
  }
  const seconds = (performance.now() - t0) / 1000
  const paid = fake.transferCalls.length - before
  const left = await api.db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', 'in', ['pending', 'processing'])
    .executeTakeFirstOrThrow()
  console.log(
    `Worker throughput (${kind}): ${paid} paid in ${seconds.toFixed(1)} s over ${passes} passes = ${(paid / seconds).toFixed(0)} payouts/s; ${Number(left.n)} left unpaid`,
  )
  await api.close()
}
await fake.close()
await database.drop()
