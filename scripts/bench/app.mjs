// The app under measurement: our build (web + api) on free ports, on a throw-away SQLite file or
// PostgreSQL database, with mail to an outbox and an operator token made for this run; a signed-in
// person with a wallet, a PIN, a bank card, a withdrawal and an order so every screen has content;
// and the bare Remix reference (../shared/perf-baseline) when it is there.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { staffAdminToken } from '../lib/staff-admin.mjs'
import { assertLocal, freePort, root, sleep, work } from './lib.mjs'

export { work }
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres'

function newest(entry) {
  if (!existsSync(entry)) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))))
}

/** `npm run build` when build/ is missing or older than the sources (as `npm start` decides). */
export function ensureBuild() {
  const at = (f) => path.join(root, f)
  const outputs = ['build/server.js', 'build/api.js', 'build/server/index.js', 'build/ops/server/index.js', 'build/.stamp']
  const sources = ['app', 'api', 'contract', 'server.ts', 'vite.config.ts', 'vite.ops.config.ts', 'package.json', 'public/favicon.svg']
  const stale = outputs.some((f) => !existsSync(at(f))) || Math.max(...sources.map((s) => newest(at(s)))) > newest(at('build/.stamp'))
  if (!stale) return
  console.log('Building (build/ is missing or older than the sources)…')
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error('npm run build failed')
}

async function waitFor(url, child, what) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited before answering`)
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return
    } catch {
      // not listening yet
    }
    await sleep(150)
  }
  throw new Error(`${what} did not answer ${url} within a minute`)
}

const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const force = setTimeout(() => child.kill('SIGKILL'), 12_000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })

/**
 * Starts api + web for `kind` ('sqlite' | 'postgres'). Answers { base, api, webPid, apiPid,
 * apiRequests() (request lines the api has logged so far), stop() }.
 * `heap`: the web writes a heap snapshot on SIGUSR2 into tmp/bench/. `webFlags`: more Node flags
 * for the web (`--cpu-prof --cpu-prof-dir=…` to profile a run; the profile is written as it stops),
 * `apiFlags` the same for the api.
 */
export async function startStack(kind, { heap = false, webFlags = [], apiFlags = [] } = {}) {
  const dir = path.join(work, kind)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(path.join(dir, 'outbox'), { recursive: true })
  let databaseUrl = `file:${path.join(dir, 'cardlane.db')}`
  let dropDb = async () => {}
  if (kind === 'postgres') {
    const name = `cardlane_bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: PG_ADMIN })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    await admin.end()
    databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`
    dropDb = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await c.end()
    }
  }
  const adminToken = randomBytes(24).toString('hex')
  const [apiPort, webPort] = [await freePort(), await freePort()]
  const api = `http://127.0.0.1:${apiPort}`
  const base = `http://127.0.0.1:${webPort}`
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' }
  const apiChild = spawn(process.execPath, [...apiFlags, 'build/api.js'], {
    cwd: root,
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      TRUST_PROXY: 'loopback',
      PIN_PEPPER: randomBytes(32).toString('hex'),
      ADMIN_TOKEN: adminToken,
      CODES_KEY: randomBytes(32).toString('hex'),
      MAIL_TRANSPORT: 'outbox',
      OUTBOX_DIR: path.join(dir, 'outbox'),
      UPLOAD_DIR: path.join(dir, 'uploads'),
      // The bench signs up and sets a PIN more often than a person would.
      AUTH_RATE_LIMIT: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // The api logs one JSON line per request (api/middleware/request-log.ts): counted, not kept.
  let requestLines = 0
  createInterface({ input: apiChild.stdout }).on('line', (line) => {
    if (line.includes('"msg":"request"')) requestLines++
  })
  apiChild.stderr.resume()
  await waitFor(`${api}/healthz`, apiChild, 'the api')
  const webChild = spawn(
    process.execPath,
    [
      '--max-semi-space-size=32',
      '--max-old-space-size=256',
      ...(heap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${work}`] : []),
      ...webFlags,
      'build/server.js',
    ],
    {
      cwd: root,
      env: {
        ...env,
        API_BASE_URL: api,
        PORT: String(webPort),
        HOST: '127.0.0.1',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        COOKIE_SECURE: 'false',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  webChild.stderr.resume()
  await waitFor(`${base}/healthcheck`, webChild, 'the web')
  return {
    kind,
    base,
    api,
    adminToken,
    databaseUrl,
    outbox: path.join(dir, 'outbox'),
    webPid: webChild.pid,
    apiPid: apiChild.pid,
    webChild,
    apiRequests: () => requestLines,
    async stop() {
      await stopChild(webChild)
      await stopChild(apiChild)
      await dropDb()
    },
  }
}

/** The NUBAN check digit (contract/bank-cards.ts isValidNuban): a serial that the form accepts. */
function nuban(bank, serial) {
  const w = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3]
  const digits = bank.padStart(3, '0') + serial
  const sum = [...digits].reduce((a, d, i) => a + Number(d) * w[i], 0)
  return serial + ((10 - (sum % 10)) % 10)
}

function codeFor(outbox, email) {
  for (const f of readdirSync(outbox)) {
    const text = readFileSync(path.join(outbox, f), 'utf8')
    // The code on a line of its own: the address's random part may be six digits as well.
    if (text.includes(email)) return /^\s*(\d{6})\s*$/m.exec(text)?.[1]
  }
  return undefined
}

/**
 * A person with content on every screen: registered with the outbox code, signed in through the
 * real login form (the browser's cookie), a credited wallet, a PIN, a bank card, a withdrawal and
 * an e-code order. Answers { cookie, orderId, withdrawalId }.
 */
export async function seed(stack) {
  const { api, base, outbox, adminToken } = stack
  assertLocal(api)
  assertLocal(base)
  const email = `bench.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`
  const password = 'bench passphrase for timing'
  const pin = '204816'
  let token
  const call = async (method, route, body, headers = {}) => {
    const res = await fetch(api + route, {
      method,
      headers: { 'content-type': 'application/json', clientType: 'h5', ...(token ? { token } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = await res.json()
    if (json.code !== 200) throw new Error(`${route}: ${json.code} ${json.msg}`)
    return json.data
  }
  const requestId = () => randomUUID().replace(/-/g, '')

  await call('POST', '/auth/sendEmailCode', { email, type: 1 })
  let verifyCode
  for (let i = 0; i < 40 && !verifyCode; i++) {
    await sleep(100)
    verifyCode = codeFor(outbox, email)
  }
  if (!verifyCode) throw new Error(`no code for ${email} in the outbox`)
  token = await call('POST', '/auth/register', { email, password, verifyCode })
  // Money moves only as a staff member (the ADMIN_TOKEN makes the first admin, nothing more).
  const staff = { authorization: `Bearer ${await staffAdminToken(api, adminToken)}` }
  const me = await fetch(`${api}/admin/user?email=${encodeURIComponent(email)}`, { headers: staff }).then((r) => r.json())
  await call(
    'POST',
    '/admin/wallet/adjust',
    { userId: me.data.userId, amount: 50_000_000, reason: 'bench: content for every screen', requestId: requestId() },
    staff,
  )
  await call('POST', '/v1/user/setPin', { pin })
  const card = await call('POST', '/v1/bankCard/add', {
    bankCode: '058',
    accountNumber: nuban('058', String(Date.now() % 1e9).padStart(9, '0')),
    accountName: 'Bench Person',
    pin,
  })
  const withdrawal = await call('POST', '/v1/withdraw/create', { bankCardId: card.id, amount: 200_000, pin, requestId: requestId() })
  // An e-code order on the first rate of the catalogue that sells e-codes.
  const rates = await call('GET', '/v1/giftcard/rates')
  const rate = rates.find((r) => r.cardType === 'ecode') ?? rates[0]
  let orderId = null
  if (rate) {
    const order = await call('POST', '/v1/order/sell', {
      brandId: rate.brandId,
      country: rate.country,
      cardType: rate.cardType,
      cards:
        rate.cardType === 'ecode'
          ? [{ faceValue: 5_000, cardCodes: [randomBytes(8).toString('hex').toUpperCase()] }]
          : [{ faceValue: 5_000, imageIds: [] }],
      quotedRate: rate.rate,
      requestId: requestId(),
    })
    orderId = order.id
  }

  // The browser's cookie, through the real login form; then the steady cookie without the toast.
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'password', email, password }),
    redirect: 'manual',
  })
  const cookieOf = (res) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
  const cookie = cookieOf(login)
  if (!cookie) throw new Error(`login through the web failed (${login.status})`)
  const first = await fetch(`${base}/`, { headers: { cookie }, redirect: 'manual' })
  await first.arrayBuffer()
  return { email, cookie: cookieOf(first) || cookie, orderId, withdrawalId: withdrawal.id }
}

/** Every screen of app/utils/routes.ts with a concrete URL and whether it is opened signed in. */
export function screenUrls(person) {
  const text = readFileSync(path.join(root, 'app/utils/routes.ts'), 'utf8')
  const from = text.indexOf('export const screens')
  const block = text.slice(from, text.indexOf('\n]', from))
  const rows = [...block.matchAll(/path: '([^']+)', screen: '([^']+)'[^}]*access: '(\w+)'/g)].map(([, p, screen, access]) => ({
    path: p,
    screen,
    access,
  }))
  // The screens about one order or withdrawal: the seeded ones (the success screens take ?id=).
  const concrete = {
    '/order/:id': person.orderId && `/order/${person.orderId}`,
    '/order/submit-success': person.orderId && `/order/submit-success?id=${person.orderId}`,
    '/wallet/withdraw/:id': `/wallet/withdraw/${person.withdrawalId}`,
    '/wallet/withdraw-success': `/wallet/withdraw-success?id=${person.withdrawalId}`,
  }
  // Home is the one public screen people see both ways: signed in it carries the wallet.
  return rows
    .filter((r) => !r.path.includes(':') || concrete[r.path])
    .flatMap((r) => {
      const one = { screen: r.screen, path: concrete[r.path] ?? r.path, signedIn: r.access === 'login' }
      return r.path === '/' ? [one, { ...one, signedIn: true }] : [one]
    })
}

/** The reference (../shared/perf-baseline), installed in tmp/ of this repo; null when absent. */
export async function startReference() {
  // ../shared beside the main checkout; a worktree under wt/ finds it one level further up.
  const runSh = ['../shared/perf-baseline/run.sh', '../../shared/perf-baseline/run.sh']
    .map((p) => path.resolve(root, p))
    .find((p) => existsSync(p))
  if (!runSh) return null
  const baselineDir = path.join(root, 'tmp', 'perf-baseline')
  // A build another checkout made already: copied rather than installed again.
  if (!existsSync(path.join(baselineDir, '.built')) && existsSync('/tmp/cardlane-perf-baseline/.built')) {
    mkdirSync(baselineDir, { recursive: true })
    execFileSync('cp', ['-r', '/tmp/cardlane-perf-baseline/.', baselineDir + '/'], { stdio: 'ignore' })
  }
  const [port, upPort] = [await freePort(), await freePort()]
  console.log('Starting the reference (installs and builds once, in tmp/perf-baseline)…')
  execFileSync(runSh, ['start', String(port), String(upPort)], {
    env: { ...process.env, PERF_BASELINE_DIR: baselineDir },
    stdio: 'ignore',
    timeout: 900_000,
  })
  const pid = Number(readFileSync(path.join(baselineDir, 'server.pid'), 'utf8'))
  return {
    url: `http://127.0.0.1:${port}/data`,
    pid,
    stop: () => execFileSync(runSh, ['stop'], { env: { ...process.env, PERF_BASELINE_DIR: baselineDir }, stdio: 'ignore' }),
  }
}
