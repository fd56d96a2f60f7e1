// What the review desk's "same photo on another account" check costs: the order's photo hashes
// against N stored card-photo hashes of other people (default 10 000), on a throw-away SQLite
// file, through the api's own code (services/order-signals.ts). The order under review is sold
// through the api by the test kit. Measures, never asserts.
//   node scripts/run-with-kit.mjs scripts/bench-review.mjs [--photos 10000] [--rounds 20]
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { orderSignals, photoMatches } from '../api/services/ops/review-signals.ts'
import { seedUser, startTestApi } from '../tests/support/api.ts'
import { photo, sellingConfig, sold } from '../tests/support/selling.ts'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const photos = arg('photos', 10_000)
const rounds = arg('rounds', 20)
const uploads = mkdtempSync(path.join(tmpdir(), 'cardlane-bench-review-'))
const api = await startTestApi({ config: { selling: sellingConfig(uploads) }, logLevel: 'warn' })
const db = api.db

const now = Date.now()
const hex = () => randomBytes(8).toString('hex')
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

const { user: others } = await seedUser(api, { email: 'others@bench.test' })
for (let i = 0; i < photos; i += 500) {
  await db
    .insertInto('uploads')
    .values(Array.from({ length: Math.min(500, photos - i) }, () => upload(randomUUID(), others.id, hex())))
    .execute()
}
// The order under review, sold as a person sells it: one physical card with three photos.
const { token } = await seedUser(api, { email: 'seller@bench.test' })
const imageIds = [await photo(api, token), await photo(api, token), await photo(api, token)]
const { id: orderId } = await sold(api, token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds }] })

const deps = api.deps
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
const stored = await db.selectFrom('uploads').select(['id', 'phash']).where('user_id', '=', others.id).execute()
const mine = [0, 1, 2].map((i) => ({ card_id: 'card', upload_id: `m${i}`, phash: hex() }))
const scan = []
for (let r = 0; r < rounds; r++) {
  const t = performance.now()
  photoMatches(mine, stored)
  scan.push(performance.now() - t)
}
scan.sort((a, b) => a - b)
console.log(`the comparison alone (3 × ${stored.length} Hamming distances): p50 ${scan[Math.floor(scan.length / 2)].toFixed(2)} ms`)
await api.close()
rmSync(uploads, { recursive: true, force: true })
