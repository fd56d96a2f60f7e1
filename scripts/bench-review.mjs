// What the review desk's "same photo on another account" check costs: the order's photo hashes
// against N stored card-photo hashes of other people (default 10 000), on a throw-away SQLite
// file, through the api's own code (services/order-signals.ts). Measures, never asserts.
//   node scripts/bench-review.mjs [--photos 10000] [--rounds 20]
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const photos = arg('photos', 10_000)
const rounds = arg('rounds', 20)
const work = path.resolve('tmp', 'bench-review')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })

// The api's TypeScript, bundled as the build does (packages stay in node_modules).
const entry = path.join(work, 'entry.mjs')
await build({
  stdin: {
    contents: `export { createDb } from './api/db/connect'
export { migrateToLatest } from './api/db/migrate'
export { orderSignals, photoMatches } from './api/services/order-signals'`,
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  outfile: entry,
  logLevel: 'warning',
})
const { createDb, migrateToLatest, orderSignals, photoMatches } = await import(entry)
const { db } = createDb(`file:${path.join(work, 'bench.sqlite')}`)
await migrateToLatest(db)

const now = Date.now()
const hex = () => randomBytes(8).toString('hex')
const user = (id) => ({
  id,
  email: `${id}@bench.test`,
  password_hash: null,
  user_name: id,
  head_img: null,
  google_sub: null,
  google_email: null,
  signup_address: null,
  created_at: now,
  updated_at: now,
})
const upload = (id, userId, phash) => ({
  id,
  user_id: userId,
  uploaded_by: 'person',
  purpose: 'card',
  storage_key: `x/${id}.jpg`,
  content_type: 'image/jpeg',
  bytes: 1,
  width: 1,
  height: 1,
  created_at: now,
  phash,
})

await db
  .insertInto('users')
  .values([user('seller'), user('others')])
  .execute()
for (let i = 0; i < photos; i += 500) {
  await db
    .insertInto('uploads')
    .values(Array.from({ length: Math.min(500, photos - i) }, () => upload(randomUUID(), 'others', hex())))
    .execute()
}
// The order under review: one physical card with three photos.
const orderId = randomUUID()
await db
  .insertInto('orders')
  .values({
    id: orderId,
    order_no: 'CL-BENCH001',
    user_id: 'seller',
    request_id: 'r',
    request_hash: 'h',
    brand_id: 'steam',
    country: 'US',
    currency: 'USD',
    card_type: 'physical',
    quoted_rate_micro: 1,
    payout_currency: 'NGN',
    quoted_payout: 100,
    proposed_payout: null,
    settled_payout: null,
    status: 'pending',
    reason_code: null,
    proposal_reason: null,
    proposed_at: null,
    operator_note: null,
    proof_image_id: null,
    claimed_by: null,
    claim_expires_at: null,
    eta_minutes: 30,
    created_at: now,
    updated_at: now,
  })
  .execute()
await db
  .insertInto('order_cards')
  .values({
    id: 'card',
    order_id: orderId,
    position: 1,
    face_value: 5000,
    quoted_payout: 100,
    proposed_payout: null,
    settled_payout: null,
    reason_code: null,
    codes_cipher: null,
    codes_masked: null,
    code_hmac: null,
  })
  .execute()
for (let p = 0; p < 3; p++) {
  const id = randomUUID()
  await db
    .insertInto('uploads')
    .values(upload(id, 'seller', hex()))
    .execute()
  await db.insertInto('order_card_images').values({ order_card_id: 'card', upload_id: id, position: p }).execute()
}

const deps = { db, now: () => Date.now() }
await orderSignals(deps, orderId) // warm up
const times = []
for (let r = 0; r < rounds; r++) {
  const t = performance.now()
  await orderSignals(deps, orderId)
  times.push(performance.now() - t)
}
times.sort((a, b) => a - b)
const q = (x) => times[Math.min(times.length - 1, Math.floor(x * times.length))].toFixed(1)
console.log(
  `order signals, 3 photos against ${photos} stored hashes (SQLite): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms over ${rounds} rounds`,
)
// The comparison alone, on hashes already read: what the scan costs without the database.
const stored = await db.selectFrom('uploads').select(['id', 'phash']).where('user_id', '=', 'others').execute()
const mine = [0, 1, 2].map((i) => ({ card_id: 'card', upload_id: `m${i}`, phash: hex() }))
const scan = []
for (let r = 0; r < rounds; r++) {
  const t = performance.now()
  photoMatches(mine, stored)
  scan.push(performance.now() - t)
}
scan.sort((a, b) => a - b)
console.log(`the comparison alone (3 × ${stored.length} Hamming distances): p50 ${scan[Math.floor(scan.length / 2)].toFixed(2)} ms`)
await db.destroy()
rmSync(work, { recursive: true, force: true })
