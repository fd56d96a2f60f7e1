// What a password hash costs, and what a flood of sign-ins does to a real person's sign-in.
// Measures, never asserts; bounded to about a minute; 127.0.0.1 only.
//   node scripts/bench-hash.mjs                      hash cost only (scrypt N=2^17 vs argon2id 19 MiB, t=2)
//   node scripts/bench-hash.mjs --api http://127.0.0.1:3001 [--outbox data/outbox] [--flood 24] [--seconds 10] [--flood-only]
// --flood-only skips the hash cost and the one-/64 rotation, leaving the person alone and under a
// flood of one /64 per request (docs/performance.md's figure).
// The second form needs a running api that trusts this machine's X-Forwarded-For (`npm start` sets
// TRUST_PROXY=loopback) and writes mail to the outbox folder (`npm start` does).
import { randomBytes, randomInt, scrypt } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const api = arg('api', undefined)
const outbox = arg('outbox', 'data/outbox')
const floodSize = Number(arg('flood', 24))
const floodSeconds = Math.min(Number(arg('seconds', 10)), 15)
const floodOnly = process.argv.includes('--flood-only')
const deadline = Date.now() + 60_000

const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const p = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]?.toFixed(0) ?? '-'
  return `n=${String(s.length).padStart(3)}  p50 ${p(0.5).padStart(5)} ms  p95 ${p(0.95).padStart(5)} ms  max ${p(1).padStart(5)} ms`
}

// --- 1. The cost of one hash, sequential, on this machine.
async function timeHashes(name, once, n = 5) {
  const times = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await once()
    times.push(performance.now() - t)
  }
  console.log(`${name.padEnd(36)} ${ms(times)}`)
}
const scryptOnce = () =>
  new Promise((resolve, reject) =>
    scrypt('bench passphrase', randomBytes(16), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 2 ** 28 }, (e, k) => (e ? reject(e) : resolve(k))),
  )
const argonOnce = () => argon2Hash('bench passphrase', { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 })
if (!floodOnly) {
  console.log('One hash, one at a time:')
  await timeHashes('scrypt N=2^17 r=8 p=1 (128 MiB)', scryptOnce)
  await timeHashes('argon2id m=19 MiB t=2 p=1', argonOnce)
}

if (!api) process.exit(0)
if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?$/.test(api)) throw new Error('bench targets this machine only')

// --- 2. A real person's sign-in, alone and during a flood of sign-ins for unknown addresses.
const post = async (path, body, clientIp) => {
  const headers = { 'content-type': 'application/json', clientType: 'h5' }
  if (clientIp) headers['x-forwarded-for'] = clientIp
  const t = performance.now()
  const res = await fetch(`${api}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  const envelope = await res.json()
  return { status: res.status, code: envelope.code, ms: performance.now() - t, envelope }
}

// The person registers through the api with the code from the outbox (found by its To: line).
const email = `bench.hash.${Date.now()}@example.com`
const password = 'bench passphrase for timing'
const person = '198.51.100.7'
await post('/auth/sendEmailCode', { email, type: 1 }, person)
let verifyCode
for (let i = 0; i < 50 && !verifyCode; i++) {
  await new Promise((r) => setTimeout(r, 100))
  for (const f of readdirSync(outbox)) {
    const text = readFileSync(join(outbox, f), 'utf8')
    if (text.includes(`To: ${email}\n`)) verifyCode = /\b(\d{6})\b/.exec(text)?.[1]
  }
}
if (!verifyCode) throw new Error(`no code for ${email} in ${outbox}`)
const registered = await post('/auth/register', { email, password, verifyCode }, person)
if (registered.code !== 200) throw new Error(`register failed: ${registered.envelope.msg}`)

const signIn = () => post('/auth/login', { email, password }, person)
await signIn() // the first sign-in may rehash an old hash; not part of the figures

async function personDuring(label, flood) {
  const times = []
  const refused = []
  let stop = false
  let answered = 0
  let limited = 0
  const attacker = async () => {
    for (let i = 0; !stop && Date.now() < deadline; i++) {
      const r = await post(
        '/auth/login',
        { email: `ghost.${randomBytes(6).toString('hex')}@example.com`, password: 'not the password' },
        flood(),
      )
      if (r.status === 429) limited++
      else answered++
    }
  }
  const began = performance.now()
  const attackers = flood ? Array.from({ length: floodSize }, attacker) : []
  await new Promise((r) => setTimeout(r, flood ? 1_000 : 0))
  const until = Date.now() + (flood ? floodSeconds * 1000 : 3_000)
  while (Date.now() < until && Date.now() < deadline) {
    const r = await signIn()
    if (r.code === 200) times.push(r.ms)
    else refused.push(r.status)
    await new Promise((res) => setTimeout(res, 250))
  }
  stop = true
  await Promise.all(attackers)
  const seconds = (performance.now() - began) / 1000
  const floodLine = flood ? `; flood: ${(answered / seconds).toFixed(1)} hashed answers/s, ${limited} refused 429` : ''
  console.log(`${label.padEnd(36)} ${ms(times)}  refused ${refused.length}${floodLine}`)
}

const hex = () => randomInt(0, 0x10000).toString(16)
console.log(`\nA person's sign-in (${api}), flood of ${floodSize} concurrent unknown-address sign-ins:`)
await personDuring('alone', undefined)
if (!floodOnly) await personDuring('flood, rotating inside one /64', () => `2001:db8:1:2:${hex()}:${hex()}:${hex()}:${hex()}`)
await personDuring('flood, one /64 per request', () => `2001:db8:${hex()}:${hex()}::${hex()}`)
