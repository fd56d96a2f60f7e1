// What every part of `npm run bench` shares: arguments, /proc readings, wrk, percentiles.
import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createServer } from 'node:net'
import { cpus, totalmem } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import pg from 'pg'
import { esbuildTarget } from '../lib/node-version.mjs'

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')
/** Where the bench keeps its builds, databases and reports between parts. */
export const work = path.join(root, 'tmp', 'bench')

/**
 * The api's own modules (TypeScript, path aliases) bundled once for this process to call:
 * `exports` maps a module under the repository root to the names it gives, e.g.
 * `{ './api/db/connect': ['createDb'] }`. `name` keeps one part's bundle apart from another's.
 */
export async function apiModules(name, exports) {
  const outfile = path.join(work, `${name}-entry.mjs`)
  await build({
    stdin: {
      contents: Object.entries(exports)
        .map(([from, names]) => `export { ${names.join(', ')} } from '${from}'`)
        .join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: esbuildTarget,
    packages: 'external',
    outfile,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  })
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)
}

const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * An empty database that is gone after `drop()`: a SQLite file in its own folder under the bench's
 * work folder, or a PostgreSQL database of a random name on the local server.
 */
export async function throwAwayDatabase(kind, folder) {
  if (kind === 'sqlite') {
    const dir = path.join(work, folder)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    return { url: `file:${path.join(dir, 'cardlane.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `cardlane_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: PG_ADMIN })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await c.end()
    },
  }
}

export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
export const flag = (name) => process.argv.includes(`--${name}`)
export const list = (name, fallback) =>
  String(arg(name, fallback))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
export const BROWSER_ENCODING = 'gzip, deflate, br'

/** Only this machine is ever loaded. */
const LOCAL = /^http:\/\/127\.0\.0\.1(:\d+)?(\/|$)/
export function assertLocal(url) {
  if (!LOCAL.test(url)) throw new Error(`the bench targets 127.0.0.1 only: ${url}`)
  return url
}

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/** utime + stime of a process, in ms. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS
}

/** Resident memory of a process, in MB. */
export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

export function machine() {
  const c = cpus()
  return {
    cores: c.length,
    cpu: c[0]?.model?.trim() ?? 'unknown',
    memoryGb: (totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
  }
}

export const median = (xs) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b)
  if (!s.length) return NaN
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
export const percentile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN
}

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined

/**
 * Without wrk on the machine: `connections` kept-alive connections from this process, each asking
 * again as soon as an answer is read, for `seconds`. The client's own CPU then shares the cores with
 * the servers, so its pages/s are lower than wrk's; the ratio to the reference, loaded the same way, holds.
 */
async function nodeLoad(url, { connections, seconds, headers }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const until = Date.now() + seconds * 1000
  const times = []
  let bad = 0
  const one = () =>
    new Promise((resolve) => {
      const started = performance.now()
      const req = http.get(url, { agent, headers, timeout: 5_000 }, (res) => {
        res.on('data', () => undefined)
        res.on('end', () => {
          if (res.statusCode >= 400) bad++
          times.push(performance.now() - started)
          resolve()
        })
      })
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', () => {
        bad++
        resolve()
      })
    })
  const began = performance.now()
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) await one()
    }),
  )
  const elapsed = (performance.now() - began) / 1000
  agent.destroy()
  return { requests: times.length, perSecond: times.length / elapsed, bad, p99: percentile(times, 0.99) }
}

/** One wrk run (bounded by its duration plus a margin): requests, requests/s, errors, p99 in ms. */
export function wrk(url, { connections = 50, seconds = 5, headers = {}, latency = false, script } = {}) {
  assertLocal(url)
  if (!hasWrk) {
    if (script) throw new Error('wrk is not installed: a wrk script cannot run (apt-get install wrk)')
    return nodeLoad(url, { connections, seconds, headers })
  }
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '5s',
    ...(latency ? ['--latency'] : []),
    ...(script ? ['-s', script] : []),
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ]
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8', timeout: (seconds + 20) * 1000 }, (err, out) => {
      if (err) return reject(err)
      const unit = { us: 0.001, ms: 1, s: 1000 }
      const p99 = /99%\s+([\d.]+)(us|ms|s)\b/.exec(out)
      resolve({
        requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
        perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
        bad: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*timeout (\d+)/.exec(out)?.[1] ?? 0),
        p99: p99 ? Number(p99[1]) * unit[p99[2]] : NaN,
      })
    })
  })
}

/** "met" or "missed by X" for a figure against a budget (`atMost`: smaller is better). */
export function verdict(figure, budget, { atMost = true, unit = '' } = {}) {
  if (!Number.isFinite(figure)) return 'not measured'
  const ok = atMost ? figure <= budget : figure >= budget
  if (ok) return 'met'
  const by = Math.abs(figure - budget)
  const text = Number.isInteger(by) || by >= 10 ? by.toFixed(0) : by.toFixed(by >= 1 ? 1 : 2)
  return `missed by ${text}${unit}`
}
