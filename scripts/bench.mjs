// A bounded latency benchmark against a running app on this machine (`npm start` first).
// Measures, never asserts: prints p50/p95/max and requests per second per scenario.
//   node scripts/bench.mjs [--base http://127.0.0.1:3000] [--requests 200] [--concurrency 8]
import { readdirSync, readFileSync } from 'node:fs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const base = arg('base', 'http://127.0.0.1:3000')
const api = arg('api', 'http://127.0.0.1:3001')
const total = Number(arg('requests', 200))
const concurrency = Number(arg('concurrency', 8))
const deadline = Date.now() + 60_000 // never runs longer than a minute in all

if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?$/.test(base)) throw new Error('bench targets this machine only')

async function scenario(name, once, n = total) {
  const times = []
  let next = 0
  const worker = async () => {
    while (next < n && Date.now() < deadline) {
      next++
      const start = performance.now()
      await once()
      times.push(performance.now() - start)
    }
  }
  const began = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = (performance.now() - began) / 1000
  times.sort((a, b) => a - b)
  const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1)
  console.log(`${name.padEnd(34)} n=${String(times.length).padStart(4)}  p50 ${pct(0.5).padStart(7)} ms  p95 ${pct(0.95).padStart(7)} ms  max ${times.at(-1).toFixed(1).padStart(7)} ms  ${(times.length / seconds).toFixed(1)} req/s`)
}

const expectOk = async (res, ...ok) => {
  await res.arrayBuffer()
  if (!ok.includes(res.status)) throw new Error(`unexpected status ${res.status} for ${res.url}`)
}

// An account to sign in with, registered through the api with the code from data/outbox/.
const email = `bench.${Date.now()}@example.com`
const password = 'bench passphrase for timing'
const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', clientType: 'h5' }, body: JSON.stringify(body) }).then((r) => r.json())
await post(`${api}/auth/sendEmailCode`, { email, type: 1 })
await new Promise((r) => setTimeout(r, 300))
const mail = readdirSync('data/outbox').filter((f) => f.includes(email)).sort().at(-1)
const verifyCode = /\b(\d{6})\b/.exec(readFileSync(`data/outbox/${mail}`, 'utf8'))[1]
const registered = await post(`${api}/auth/register`, { email, password, verifyCode })
if (registered.code !== 200) throw new Error(`register failed: ${registered.msg}`)

// A signed-in browser cookie, through the real login form.
const login = await fetch(`${base}/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ intent: 'password', email, password }),
  redirect: 'manual',
})
const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

console.log(`Cardlane bench: ${base}, ${total} requests per scenario, concurrency ${concurrency}`)
await scenario('GET / (visitor, SSR)', async () => expectOk(await fetch(`${base}/`), 200))
await scenario('GET /login (SSR)', async () => expectOk(await fetch(`${base}/login`), 200))
await scenario('GET /account (signed in, 2 api calls)', async () => expectOk(await fetch(`${base}/account`, { headers: { cookie } }), 200))
await scenario('GET /account?_data (client navigation)', async () => expectOk(await fetch(`${base}/account?_data=routes%2Faccount`, { headers: { cookie } }), 200))
await scenario('POST /login (scrypt N=2^17)', async () =>
  expectOk(
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'password', email, password }),
      redirect: 'manual',
    }),
    302,
  ), Math.min(total, 20))
