// What the review desk's queue page costs with many orders waiting: the production build (web and
// api, a throw-away SQLite file), N waiting orders sold through the api (default 500, some past
// their ETA), and GET /ops/review as a signed-in reviewer: the loader's api calls and
// the page's render, the whole document. Measures, never asserts.
//   npm run build && node scripts/run-with-kit.mjs scripts/bench-review-queue.mjs [--orders 500] [--rounds 20] [--shots dir]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { commitStaffSession, emptyStaffSession } from '../app/ops/session.server.ts'
import { createWebApp, loadBuild } from '../server/app.ts'
import { seedUser, startTestApi } from '../tests/support/api.ts'
import { sold } from '../tests/support/selling.ts'
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
// Both builds, as the web process serves them: the review queue is the console's (decision 052).
const web = createWebApp(await loadBuild(path.resolve('build/server/index.js')), {
  ops: await loadBuild(path.resolve('build/ops/server/index.js')),
})
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
  // Sold through the api as a person sells (tests/support/selling.ts), spread over the last ten
  // hours by the kit's clock: the oldest are late against any brand's ETA.
  const now = app.api.clock.now()
  const { token } = await seedUser(app.api, { email: 'seller@bench.test' })
  const brands = ['apple', 'steam', 'google-play', 'amazon']
  for (let j = 0; j < count; j++) {
    app.api.clock.set(now - Math.round(((count - j) / count) * 10 * 3_600_000))
    await sold(app.api, token, { brandId: brands[j % brands.length] })
  }
  app.api.clock.set(now)
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
