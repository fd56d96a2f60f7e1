// What every part of `npm run bench` shares: arguments, /proc readings, wrk, percentiles.
import { execFile, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, totalmem } from 'node:os'
import path from 'node:path'

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')

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

/** One wrk run (bounded by its duration plus a margin): requests, requests/s, errors, p99 in ms. */
export function wrk(url, { connections = 50, seconds = 5, headers = {}, latency = false, script } = {}) {
  assertLocal(url)
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
