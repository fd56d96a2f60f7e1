// `npm start`: the whole app on its embedded default. Builds when the sources are newer than
// the build, then runs the api (SQLite under data/, e-mail to the console and data/outbox/)
// and the web in front of it, as two processes, and prints the one URL to open.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)

function newest(entry) {
  if (!existsSync(entry)) return 0
  const stat = statSync(entry)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))))
}

const outputs = ['build/server.js', 'build/api.js', 'build/remix/index.js', 'build/.stamp']
const sources = ['app', 'api', 'contract', 'server.ts', 'remix.config.js', 'package.json', 'public/favicon.svg']
const stale = outputs.some((f) => !existsSync(f)) || Math.max(...sources.map(newest)) > newest('build/.stamp')
if (stale) {
  console.log('Building…')
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

mkdirSync('data', { recursive: true })
// A session secret of this installation, made once and kept out of git (data/ is ignored).
const secretFile = 'data/session-secret'
if (!process.env.SESSION_SECRET && !existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString('hex'), { mode: 0o600 })
const sessionSecret = process.env.SESSION_SECRET || readFileSync(secretFile, 'utf8').trim()

const webPort = Number(process.env.PORT ?? 3000)
const apiPort = Number(process.env.API_PORT ?? 3001)
const apiUrl = `http://127.0.0.1:${apiPort}`

const children = []
function run(name, file, env) {
  const child = spawn(process.execPath, ['--enable-source-maps', file], { stdio: 'inherit', env: { ...process.env, ...env } })
  child.on('exit', (code, signal) => {
    if (stopping) return
    console.error(`${name} stopped (${signal ?? code}); stopping the other.`)
    stop(code ?? 1)
  })
  children.push(child)
  return child
}

let stopping = false
function stop(code = 0) {
  stopping = true
  for (const child of children) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 500).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

async function waitFor(url, name) {
  for (let i = 0; i < 150; i++) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  console.error(`${name} did not answer at ${url}`)
  stop(1)
}

run('api', 'build/api.js', {
  NODE_ENV: 'production',
  DATABASE_URL: process.env.DATABASE_URL ?? 'file:data/cardlane.db',
  API_PORT: String(apiPort),
  API_HOST: '127.0.0.1',
  // Only the web process on this machine calls the api; it forwards the visitor's address.
  TRUST_PROXY: process.env.API_TRUST_PROXY ?? 'loopback',
})
await waitFor(`${apiUrl}/healthz`, 'api')

run('web', 'build/server.js', {
  NODE_ENV: 'production',
  API_BASE_URL: apiUrl,
  PORT: String(webPort),
  SESSION_SECRET: sessionSecret,
  // Plain http on this machine: a Secure cookie would not be sent back by every browser.
  COOKIE_SECURE: process.env.COOKIE_SECURE ?? 'false',
})
await waitFor(`http://127.0.0.1:${webPort}/healthcheck`, 'web')
console.log(`\n  Cardlane is running: open http://localhost:${webPort}\n  E-mail codes are printed here and saved in data/outbox/.\n`)
