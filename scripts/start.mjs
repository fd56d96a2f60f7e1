// `npm start`: the whole app on its embedded default. Checks its ports, builds when the sources
// are newer than the build, then runs the api (SQLite under data/, e-mail to the console and
// data/outbox/) and the web in front of it, as two processes, and prints the one URL to open.
// API_BASE_URL set: no embedded api, the web uses that one. API_HOST: where the embedded api
// listens. When either process dies it is started again, sooner or later (a backoff that grows while
// it keeps dying soon after starting), and the console says so; one that keeps dying, or whose port
// another program took, stops both with exit code 1, and an api that refuses its settings stops both
// at once (its message names the variable). `--paystack-fake` (`npm run try:payouts`): automatic
// payouts against a local stand-in for Paystack (scripts/lib/paystack-fake.mjs); no money moves.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { startPaystackFake } from './lib/paystack-fake.mjs'
import { answers, createSupervisor, readSettings, refuseTakenPorts } from './lib/processes.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)

let settings
try {
  settings = readSettings()
} catch (err) {
  console.error(`\n${err.message}\n`)
  process.exit(1)
}
const { webPort, webHost, apiPort, apiHost, apiBaseUrl, embeddedApiUrl } = settings
const tryPayouts = process.argv.includes('--paystack-fake')
if (tryPayouts && apiBaseUrl) {
  console.error('\n--paystack-fake runs the embedded api against a local Paystack: unset API_BASE_URL.\n')
  process.exit(1)
}

// Before a build that takes a while: a taken port is a sentence and exit 1, not a crash later.
await refuseTakenPorts(
  [
    { port: webPort, host: webHost, what: 'the web', variable: 'PORT' },
    ...(apiBaseUrl ? [] : [{ port: apiPort, host: apiHost, what: "the embedded api's", variable: 'API_PORT' }]),
  ],
  'npm start',
)

function newest(entry) {
  if (!existsSync(entry)) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))))
}

// build/.stamp marks a complete production build (`npm run dev` removes it: its build is not one).
const outputs = ['build/server.js', 'build/api.js', 'build/server/index.js', 'build/ops/server/index.js', 'build/.stamp']
const sources = [
  'app',
  'api',
  'contract',
  'server.ts',
  'server',
  'vite.config.ts',
  'vite.ops.config.ts',
  'package.json',
  'public/favicon.svg',
]
const stale = outputs.some((f) => !existsSync(f)) || Math.max(...sources.map(newest)) > newest('build/.stamp')
if (stale) {
  console.log('Building…')
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

mkdirSync('data', { recursive: true })
/** A secret of this installation, made once and kept out of git (data/ is ignored); the variable wins. */
function installationSecret(variable, file) {
  if (process.env[variable]) return process.env[variable]
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 })
  return readFileSync(file, 'utf8').trim()
}
const sessionSecret = installationSecret('SESSION_SECRET', 'data/session-secret')
// Mixed into every withdrawal-PIN hash: losing it makes every PIN unusable, like losing the database.
const pinPepper = installationSecret('PIN_PEPPER', 'data/pin-pepper')
// Operators' token for /admin and `npm run ops` (which reads the same file).
const adminToken = installationSecret('ADMIN_TOKEN', 'data/admin-token')
// Encrypts gift-card codes at rest: losing it makes stored codes unreadable, like losing the database.
const codesKey = installationSecret('CODES_KEY', 'data/codes-key')

const supervisor = createSupervisor({ command: 'npm start' })
const node = process.execPath

/** The api (unless API_BASE_URL names one), then the web; the URL once both answer. */
async function startChildren() {
  const apiUrl = apiBaseUrl ?? (await startApi())
  if (!apiUrl) return
  if (apiBaseUrl && !(await answers(`${apiBaseUrl}/healthz`))) {
    console.warn(`The api at ${apiBaseUrl} (API_BASE_URL) does not answer yet; pages that need it show an error until it does.`)
  }
  if (await startWeb(apiUrl)) printWelcome()
}

/** Seconds a transfer stays pending at the stand-in before it is paid. */
const FAKE_PAY_AFTER_SECONDS = Number(process.env.PAYSTACK_FAKE_PAY_AFTER_SECONDS || 5)
let paystackFake = null

/** The api's settings for automatic payouts against the stand-in (none without --paystack-fake). */
async function tryPayoutsEnv() {
  if (!tryPayouts) return {}
  paystackFake = await startPaystackFake({
    root,
    webhookUrl: `${embeddedApiUrl}/v1/webhooks/paystack`,
    payAfterMs: FAKE_PAY_AFTER_SECONDS * 1000,
    log: (line) => console.log(`paystack-fake ${line}`),
  })
  return {
    PAYOUT_PROVIDER: 'paystack',
    PAYSTACK_SECRET_KEY: paystackFake.secret,
    PAYSTACK_BASE_URL: paystackFake.url,
    // The stand-in's test key and http:// address are refused in production, as they must be.
    NODE_ENV: 'development',
  }
}

async function startApi() {
  const payouts = await tryPayoutsEnv()
  const api = supervisor.run(
    'api',
    node,
    ['--enable-source-maps', 'build/api.js'],
    {
      NODE_ENV: 'production',
      DATABASE_URL: process.env.DATABASE_URL ?? 'file:data/cardlane.db',
      API_PORT: String(apiPort),
      API_HOST: apiHost,
      // Only the web process on this machine calls the api; it forwards the visitor's address.
      TRUST_PROXY: process.env.API_TRUST_PROXY ?? 'loopback',
      PIN_PEPPER: pinPepper,
      ADMIN_TOKEN: adminToken,
      CODES_KEY: codesKey,
      // Production wants the mail transport chosen explicitly: without SMTP_URL, the outbox is the choice.
      MAIL_TRANSPORT: process.env.MAIL_TRANSPORT ?? (process.env.SMTP_URL ? undefined : 'outbox'),
      // Prometheus: the api on METRICS_PORT, the web on the next one (127.0.0.1 only).
      METRICS_PORT: process.env.METRICS_PORT,
      ...payouts,
    },
    { port: apiPort, variable: 'API_PORT' },
    { restart: { readyUrl: `${embeddedApiUrl}/healthz` } },
  )
  return (await supervisor.waitUntilReady(`${embeddedApiUrl}/healthz`, api)) ? embeddedApiUrl : null
}

async function startWeb(apiUrl) {
  const probeHost = webHost === '0.0.0.0' || webHost === '::' ? '127.0.0.1' : webHost.includes(':') ? `[${webHost}]` : webHost
  const readyUrl = `http://${probeHost}:${webPort}/healthcheck`
  const web = supervisor.run(
    'web',
    node,
    // The larger young generation that `npm run start:web` gives the web (decision 011).
    ['--enable-source-maps', '--max-semi-space-size=32', '--max-old-space-size=256', 'build/server.js'],
    {
      NODE_ENV: 'production',
      API_BASE_URL: apiUrl,
      PORT: String(webPort),
      SESSION_SECRET: sessionSecret,
      // Plain http on this machine: a Secure cookie would not be sent back by every browser.
      COOKIE_SECURE: process.env.COOKIE_SECURE ?? 'false',
      METRICS_PORT: process.env.METRICS_PORT ? String(Number(process.env.METRICS_PORT) + 1) : undefined,
    },
    { port: webPort, variable: 'PORT' },
    { restart: { readyUrl } },
  )
  return supervisor.waitUntilReady(readyUrl, web)
}

function printWelcome() {
  const db = apiBaseUrl ? null : (process.env.DATABASE_URL ?? 'file:data/cardlane.db')
  console.log(
    [
      '',
      `  Cardlane is running: open http://localhost:${webPort}`,
      apiBaseUrl
        ? `  api: ${apiBaseUrl} (API_BASE_URL)`
        : `  api: ${embeddedApiUrl}, ${db.startsWith('file:') ? `SQLite at ${db.slice(5)}` : 'PostgreSQL'}`,
      apiBaseUrl || process.env.SMTP_URL ? null : '  E-mail codes are printed here and saved in data/outbox/.',
      paystackFake
        ? `  Payouts: automatic, to a local stand-in for Paystack at ${paystackFake.url} (no money moves); it pays each transfer after ${FAKE_PAY_AFTER_SECONDS} s.`
        : null,
      '',
    ]
      .filter((l) => l !== null)
      .join('\n'),
  )
}

await startChildren()
