// What `npm start` (scripts/start.mjs) and `npm run dev` (scripts/dev.mjs) share: reading the
// ports and hosts they were given, refusing a port that is taken, running the children with
// readable output, restarting a child that dies (with backoff) when asked to, and stopping
// everything — with a non-zero exit — when a child dies that is not restarted or keeps dying.
import { spawn } from 'node:child_process'
import net from 'node:net'
import { createInterface } from 'node:readline'
import { createConsoleFormat } from './console-format.mjs'

/** Settings both scripts honour, as documented in the README; a bad value stops with its name. */
export function readSettings(env = process.env) {
  const problems = []
  const port = (name, fallback) => {
    const raw = env[name] || String(fallback)
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || value < 1 || value > 65535) problems.push(`${name}=${raw} is not a port (1–65535)`)
    return value
  }
  const webPort = port('PORT', 3000)
  const apiPort = port('API_PORT', 3001)
  let apiBaseUrl = null
  if (env.API_BASE_URL) {
    try {
      apiBaseUrl = new URL(env.API_BASE_URL).href.replace(/\/$/, '')
    } catch {
      problems.push(`API_BASE_URL=${env.API_BASE_URL} is not a URL (e.g. http://api.internal:3001)`)
    }
  }
  if (problems.length) throw new Error(problems.join('\n'))
  const apiHost = env.API_HOST || '127.0.0.1'
  return {
    webPort,
    webHost: env.HOST || '0.0.0.0',
    apiPort,
    apiHost,
    // API_BASE_URL set: the web uses that api and no embedded one is started.
    apiBaseUrl,
    embeddedApiUrl: `http://${reachableHost(apiHost)}:${apiPort}`,
  }
}

/** Where this machine reaches a server that listens on `host` (a wildcard means loopback). */
function reachableHost(host) {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/** True when something already listens on port at host (or, for the usual hosts, on IPv6 too). */
async function portTaken(port, host) {
  // A browser opening localhost may land on ::1: a server there takes the port from us as well.
  const hosts = ['0.0.0.0', '127.0.0.1', 'localhost'].includes(host) ? [host, '::'] : [host]
  for (const h of hosts) if (await bindFails(port, h)) return true
  return false
}

function bindFails(port, host) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', (err) => resolve(err.code === 'EADDRINUSE'))
    server.listen(port, host, () => server.close(() => resolve(false)))
  })
}

/** A free port near `port` to suggest instead of a taken one (never one of `avoid`: the run needs those). */
async function freePortNear(port, host, avoid) {
  for (let p = port + 1; p < Math.min(port + 100, 65536); p++) if (!avoid.includes(p) && !(await portTaken(p, host))) return p
  return port + 100
}

/**
 * Checks the ports before anything starts. Each taken port gets one sentence naming it and the
 * variable that moves it; then the process exits 1.
 * @param {{ port: number, host: string, what: string, variable: string }[]} wanted
 */
export async function refuseTakenPorts(wanted, command) {
  const lines = []
  for (const { port, host, what, variable } of wanted) {
    if (!(await portTaken(port, host))) continue
    const other = await freePortNear(
      port,
      host,
      wanted.map((w) => w.port),
    )
    lines.push(`Port ${port} (${what}) is taken: another program is listening there.`)
    lines.push(`  Stop it, or choose another port: ${variable}=${other} ${command}`)
  }
  if (!lines.length) return
  console.error(`\n${lines.join('\n')}\n`)
  process.exit(1)
}

/** A child's exit code for "my settings are refused" (sysexits' EX_CONFIG, as api/main.ts exits): restarting would only repeat it. */
const SETTINGS_REFUSED = 78

/** The first restart waits this long; each quick death after it waits twice as long, up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 500
const RESTART_MAX_MS = 15_000
/** A child that ran this long before dying was healthy: its next restart starts the backoff again. */
const RESTART_STABLE_MS = 30_000
/** Deaths in a row, each before RESTART_STABLE_MS, after which restarting is given up. */
const RESTART_GIVE_UP = 6

/** The wait before restart number `attempt` (1, 2, …) of a child that keeps dying. */
const restartDelayMs = (attempt) => Math.min(RESTART_FIRST_MS * 2 ** (attempt - 1), RESTART_MAX_MS)

/**
 * Runs children, prints their output through the console format, and — as a supervisor does —
 * restarts a child started with `restart` when it dies, waiting longer each time it dies again
 * soon after starting, and says so in the console. The whole group ends when a child without
 * `restart` stops, when one keeps dying, when its port is taken (message, then exit 1), on
 * Ctrl-C (exit 0) or on SIGTERM.
 */
export function createSupervisor({ command }) {
  const format = createConsoleFormat({
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    raw: process.env.LOG_FORMAT === 'json',
  })
  const children = new Set()
  let stopping = false

  function stop(code) {
    if (stopping) return
    stopping = true
    process.exitCode = code
    if (!children.size) process.exit(code)
    for (const child of children) child.kill('SIGTERM')
    // The api waits a bounded time for requests in flight; past that, nobody waits for anybody.
    const force = setTimeout(() => {
      for (const child of children) child.kill('SIGKILL')
    }, 12_000)
    const check = () => {
      if (children.size) return
      clearTimeout(force)
      process.exit(code)
    }
    for (const child of children) child.once('close', () => setImmediate(check))
  }
  process.on('SIGINT', () => stop(0))
  process.on('SIGTERM', () => stop(0))

  /**
   * @param {string} name 'api' or 'web'
   * @param {string} file what to run
   * @param {string[]} args
   * @param {Record<string, string | undefined>} env added to this process's environment
   * @param {{ port?: number, variable?: string }} [listen] the port it listens on, to explain EADDRINUSE
   * @param {{ restart?: { readyUrl: string } }} [policy] restart it when it dies; it is back when readyUrl answers
   */
  function run(name, file, args, env, listen = {}, policy = {}) {
    const merged = { ...process.env }
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete merged[key]
      else merged[key] = value
    }
    let deaths = 0
    const start = () =>
      spawnChild(name, file, args, merged, listen, (startedAt, how, portInUse) => {
        if (!policy.restart || portInUse) return false
        deaths = Date.now() - startedAt >= RESTART_STABLE_MS ? 1 : deaths + 1
        if (deaths >= RESTART_GIVE_UP) {
          console.error(`\nThe ${name} process ${how}, the ${deaths}th time in a row soon after starting, so ${command} stops.`)
          return false
        }
        const delay = restartDelayMs(deaths)
        console.error(`\nThe ${name} process ${how}; restarting it in ${delay / 1000} s (restart ${deaths}).`)
        setTimeout(async () => {
          if (stopping) return
          const again = start()
          if (await waitUntilReady(policy.restart.readyUrl, again)) console.log(`The ${name} process is back (restart ${deaths}).`)
        }, delay)
        return true
      })
    return start()
  }

  /** One child; `restarted` decides, when it dies, whether it comes back (true) or all stop. */
  function spawnChild(name, file, args, merged, listen, restarted) {
    const startedAt = Date.now()
    const child = spawn(file, args, { env: merged, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let portInUse = false
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        if (line.includes('EADDRINUSE')) portInUse = true
        for (const text of format(name, line)) out.write(`${text}\n`)
      })
    }
    // 'close', not 'exit': by then the child's last lines (its reason to die) are printed.
    child.on('close', (code, signal) => {
      children.delete(child)
      if (stopping) return
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`
      if (code === SETTINGS_REFUSED) {
        // Its own lines above name each refused setting and what it must be.
        console.error(`\nThe ${name} process refused its settings (above): change the variable it names, then run ${command} again.`)
        stop(1)
        return
      }
      if (restarted(startedAt, how, portInUse)) return
      console.error(`\nThe ${name} process ${how}, so ${command} stops too.`)
      if (portInUse && listen.port) {
        console.error(`  Port ${listen.port} is taken by another program: stop it, or set ${listen.variable} to a free port.`)
      }
      stop(1)
    })
    return child
  }

  /** Waits until url answers 2xx; false when the child died first or a minute passed. */
  async function waitUntilReady(url, child) {
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null && !stopping) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
        if (res.ok) return true
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    if (child.exitCode === null && child.signalCode === null && !stopping) {
      console.error(`\nNothing answered at ${url} within a minute; stopping.`)
      stop(1)
    }
    return false
  }

  return { run, stop, waitUntilReady, isStopping: () => stopping }
}

/** One GET with a short timeout: does the api answer its health check? */
export async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).ok
  } catch {
    return false
  }
}
