// What the review desk's queue page costs with many orders waiting: the production build (web and
// api, a throw-away SQLite file), N waiting orders seeded straight in the database (default 500,
// some past their ETA), and GET /ops/review as a signed-in reviewer: the loader's api calls and
// the page's render, the whole document. Measures, never asserts.
//   npm run build && node scripts/run-with-kit.mjs scripts/bench-review-queue.mjs [--orders 500] [--rounds 20] [--shots dir]
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { commitStaffSession, emptyStaffSession } from '../app/utils/staff-session.server.ts'
import { createWebApp, loadBuild } from '../server/app.ts'
import { startTestApi } from '../tests/support/api.ts'
import { seedStaff } from '../tests/support/staff.ts'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const count = Number(arg('orders', 500))
const rounds = Number(arg('rounds', 20))
const shots = arg('shots', undefined)

const uploads = mkdtempSync(path.join(tmpdir(), 'cardlane-bench-review-'))
const api = await startTestApi({
  config: {
    selling: { codesKey: 'bench-codes-key-0123456789abcdef-0123456789', storage: { driver: 'disk', dir: uploads }, uploadsPerDay: 10 },
  },
})
// The web as it runs in production (react's production build), in front of the test api.
process.env.NODE_ENV = 'production'
process.env.SESSION_SECRET = randomBytes(32).toString('hex')
process.env.COOKIE_SECURE = 'false'
process.env.API_BASE_URL = api.url
const web = createWebApp(await loadBuild(path.resolve('build/remix/index.js')))
const server = await new Promise((resolve) => {
  const s = web.listen(0, '127.0.0.1', () => resolve(s))
})
const app = {
  url: `http://localhost:${server.address().port}`,
  api,
  async close() {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await api.close()
  },
}
try {
  const now = app.api.clock.now()
  const userId = randomUUID()
  await app.api.db
    .insertInto('users')
    .values({
      id: userId,
      email: 'seller@bench.test',
      password_hash: null,
      user_name: 'Seller',
      head_img: null,
      google_sub: null,
      google_email: null,
      signup_address: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  const brands = ['apple', 'steam', 'google-play', 'amazon']
  for (let i = 0; i < count; i += 100) {
    const orders = []
    const cards = []
    for (let j = i; j < Math.min(count, i + 100); j++) {
      const id = randomUUID()
      // Spread over the last ten hours: the oldest are late against any brand's ETA.
      const at = now - Math.round(((count - j) / count) * 10 * 3_600_000)
      orders.push({
        id,
        order_no: `CL-B${String(j).padStart(7, '0')}`,
        user_id: userId,
        request_id: id,
        request_hash: 'h',
        brand_id: brands[j % brands.length],
        country: 'US',
        currency: 'USD',
        card_type: 'ecode',
        quoted_rate_micro: 1_240_000_000,
        payout_currency: 'NGN',
        quoted_payout: 12_400_000,
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
        eta_minutes: 60,
        created_at: at,
        updated_at: at,
      })
      cards.push({
        id: randomUUID(),
        order_id: id,
        position: 1,
        face_value: 10_000,
        quoted_payout: 12_400_000,
        proposed_payout: null,
        settled_payout: null,
        reason_code: null,
        codes_cipher: null,
        codes_masked: null,
        code_hmac: null,
      })
    }
    await app.api.db.insertInto('orders').values(orders).execute()
    await app.api.db.insertInto('order_cards').values(cards).execute()
  }
  const staff = await seedStaff(app.api, { role: 'reviewer' })
  const session = await emptyStaffSession()
  session.set('token', staff.token)
  session.set('email', staff.email)
  session.set('role', staff.role)
  const cookie = (await commitStaffSession(session)).split(';')[0]
  const get = async () => {
    const t = performance.now()
    const res = await fetch(`${app.url}/ops/review`, { headers: { cookie } })
    const html = await res.text()
    if (res.status !== 200 || !html.includes('waiting')) throw new Error(`GET /ops/review answered ${res.status}`)
    return performance.now() - t
  }
  await get()
  const times = []
  for (let r = 0; r < rounds; r++) times.push(await get())
  times.sort((a, b) => a - b)
  const q = (x) => times[Math.min(times.length - 1, Math.floor(x * times.length))].toFixed(0)
  console.log(
    `GET /ops/review (loader + render, 50 shown) with ${count} waiting: p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms over ${rounds} rounds`,
  )
  if (shots) {
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ]) {
      const context = await browser.newContext({ viewport: { width, height } })
      const [name, value] = cookie.split('=')
      await context.addCookies([{ name, value, url: app.url }])
      const page = await context.newPage()
      await page.goto(`${app.url}/ops/review`)
      await page.screenshot({ path: `${shots}/queue-500-${width}.png` })
      await context.close()
    }
    await browser.close()
  }
} finally {
  await app.close()
  rmSync(uploads, { recursive: true, force: true })
}
