import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { build } from 'esbuild'
import { pino, type Logger } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleFormat } from '../../scripts/lib/console-format.mjs'
import { esbuildTarget } from '../../scripts/lib/node-version.mjs'
import { newEmail } from '../support/kit'

/**
 * `npm start` (scripts/start.mjs) run for real on free 127.0.0.1 ports, in a throw-away copy of
 * the project: the script and its helpers, the real api bundled as `npm run build` bundles it,
 * and a stand-in web (build/server.js) that reports the settings it was given. No Remix build is
 * needed, so this runs before the build in `npm test`. Each run is bounded by a deadline.
 */

const repo = path.resolve(import.meta.dirname, '../..')
let root: string
const started: ChildProcess[] = []
const held: http.Server[] = []

// The stand-in web: listens where the real one would (no 'error' listener: a taken port crashes
// it, as it does server.ts), answers the health check, and shows the environment it was given.
const STUB_WEB = `
import http from 'node:http'
http.createServer((req, res) => {
  if (req.url === '/healthcheck') return res.end('OK')
  if (req.url === '/env') return res.end(JSON.stringify({ API_BASE_URL: process.env.API_BASE_URL, NODE_ENV: process.env.NODE_ENV, execArgv: process.execArgv }))
  res.statusCode = 404
  res.end()
}).listen(Number(process.env.PORT), process.env.HOST || '0.0.0.0')
`

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'cardlane-start-'))
  cpSync(path.join(repo, 'scripts'), path.join(root, 'scripts'), { recursive: true })
  symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'))
  mkdirSync(path.join(root, 'build/server'), { recursive: true })
  await build({
    entryPoints: { api: path.join(repo, 'api/main.ts') },
    outdir: path.join(root, 'build'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: esbuildTarget,
    packages: 'external',
    logLevel: 'error',
    tsconfig: path.join(repo, 'tsconfig.json'),
  })
  writeFileSync(path.join(root, 'build/server.js'), STUB_WEB)
  writeFileSync(path.join(root, 'build/server/index.js'), '')
  mkdirSync(path.join(root, 'build/ops/server'), { recursive: true })
  writeFileSync(path.join(root, 'build/ops/server/index.js'), '')
  // A build newer than every source (there are none in the copy): start.mjs does not rebuild.
  writeFileSync(path.join(root, 'build/.stamp'), new Date().toISOString())
})

afterEach(async () => {
  for (const child of started.splice(0)) {
    for (const pid of childPids(child.pid!)) process.kill(pid, 'SIGKILL')
    child.kill('SIGKILL')
  }
  for (const server of held.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

/** Ports nobody listens on (held together while chosen, so they differ). */
async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer().listen(0, host, () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  return ports
}

/** Another program on a port: an HTTP server that answers 200 to anything (the old script took it for the web). */
async function holdPort(host = '127.0.0.1'): Promise<number> {
  const server = http.createServer((_req, res) => res.end('ok')).listen(0, host)
  await new Promise((resolve) => server.once('listening', resolve))
  held.push(server)
  return (server.address() as net.AddressInfo).port
}

/** The processes start.mjs started (Linux: /proc). */
function childPids(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

type Run = { child: ChildProcess; output: () => string; exit: Promise<number | null>; waitFor: (text: string | RegExp) => Promise<void> }

function runStart(env: Record<string, string>): Run {
  // Only what the script needs: nothing from the test process (TEST_DB, API_BASE_URL…) leaks in.
  // NODE_ENV=development as a developer's shell may have it: the children still run in production.
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const waitFor = async (text: string | RegExp) => {
    const deadline = Date.now() + 20_000
    while (!(typeof text === 'string' ? output.includes(text) : text.test(output))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`never printed ${text}; output:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return { child, output: () => output, exit, waitFor }
}

async function exitWithin(run: Run, ms = 20_000): Promise<number | null> {
  return Promise.race([
    run.exit,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running:\n${run.output()}`)), ms)),
  ])
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok
  } catch {
    return false
  }
}

// The script runs SQLite in its own copy whatever TEST_DB says: once per `npm test` is enough.
describe.skipIf(process.env.TEST_DB === 'postgres' || process.platform !== 'linux')('npm start', () => {
  it('a taken web port: names it and PORT, starts nothing, exits 1', async () => {
    const [webPort, [apiPort]] = [await holdPort(), await freePorts(1)]
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort) })
    expect(await exitWithin(run)).toBe(1)
    expect(run.output()).toContain(`Port ${webPort} (the web) is taken`)
    expect(run.output()).toMatch(/choose another port: PORT=\d+ npm start/)
    expect(run.output()).not.toContain('is running')
    expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(false)
  })

  it('a taken api port: names it and API_PORT, exits 1', async () => {
    const [[webPort], apiPort] = [await freePorts(1), await holdPort()]
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort) })
    expect(await exitWithin(run)).toBe(1)
    expect(run.output()).toContain(`Port ${apiPort} (the embedded api's) is taken`)
    expect(run.output()).toMatch(/choose another port: API_PORT=\d+ npm start/)
    expect(run.output()).not.toContain('is running')
  })

  it('a port that is not a number is named, exit 1', async () => {
    const run = runStart({ PORT: 'eighty' })
    expect(await exitWithin(run)).toBe(1)
    expect(run.output()).toContain('PORT=eighty is not a port')
  })

  it('prints a mailed code as one line, a request as one line; the api killed is restarted, the web kept', async () => {
    const [webPort, apiPort] = await freePorts(2)
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort) })
    await run.waitFor('Cardlane is running')
    expect(run.output()).toContain(`open http://localhost:${webPort}`)
    // The web was pointed at the embedded api.
    const env = await (await fetch(`http://127.0.0.1:${webPort}/env`)).json()
    expect(env).toMatchObject({ API_BASE_URL: `http://127.0.0.1:${apiPort}`, NODE_ENV: 'production' })
    // The web's heap as production has it: young generation (decision 011), old space bounded (decision 037).
    expect(env.execArgv).toContain('--max-semi-space-size=32')
    expect(env.execArgv).toContain('--max-old-space-size=256')

    const email = newEmail('start')
    const sent = await fetch(`http://127.0.0.1:${apiPort}/auth/sendEmailCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, type: 1 }),
    })
    expect((await sent.json()).code).toBe(200)
    await run.waitFor(new RegExp(`Code for ${email.replaceAll('.', '\\.')}: \\d{6} \\(create your account\\)`))
    await run.waitFor(/\d\d:\d\d:\d\d api POST \/auth\/sendEmailCode 200 \d+ms/)
    expect(run.output()).not.toContain('----- mail')
    expect(run.output()).not.toContain('"msg"')
    // The health polls of the start itself are not worth a line.
    expect(run.output()).not.toContain('/healthz')

    const api = childPids(run.child.pid!).find((pid) => commandOf(pid).includes('build/api.js'))
    expect(api).toBeDefined()
    process.kill(api!, 'SIGKILL')
    await run.waitFor('The api process was killed (SIGKILL); restarting it in 0.5 s (restart 1).')
    await run.waitFor('The api process is back (restart 1).')
    expect(run.output()).not.toContain('stops too')
    expect(run.child.exitCode).toBeNull()
    // A new api on the same port and database, and the web never went away.
    const again = childPids(run.child.pid!).find((pid) => commandOf(pid).includes('build/api.js'))
    expect(again).toBeDefined()
    expect(again).not.toBe(api)
    expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(true)
    expect(await answers(`http://127.0.0.1:${webPort}/healthcheck`)).toBe(true)
  })

  it('an api that dies again soon after its restart waits twice as long; the web killed comes back too; Ctrl-C still ends all with 0', async () => {
    const [webPort, apiPort] = await freePorts(2)
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort) })
    await run.waitFor('Cardlane is running')
    const apiPid = () => childPids(run.child.pid!).find((pid) => commandOf(pid).includes('build/api.js'))
    process.kill(apiPid()!, 'SIGTERM')
    await run.waitFor('The api process exited with code 0; restarting it in 0.5 s (restart 1).')
    await run.waitFor('The api process is back (restart 1).')
    process.kill(apiPid()!, 'SIGKILL')
    await run.waitFor('The api process was killed (SIGKILL); restarting it in 1 s (restart 2).')
    await run.waitFor('The api process is back (restart 2).')

    const web = childPids(run.child.pid!).find((pid) => commandOf(pid).includes('build/server.js'))
    process.kill(web!, 'SIGKILL')
    await run.waitFor('The web process was killed (SIGKILL); restarting it in 0.5 s (restart 1).')
    await run.waitFor('The web process is back (restart 1).')
    expect(await answers(`http://127.0.0.1:${webPort}/healthcheck`)).toBe(true)

    run.child.kill('SIGINT')
    expect(await exitWithin(run)).toBe(0)
    expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(false)
    expect(await answers(`http://127.0.0.1:${webPort}/healthcheck`)).toBe(false)
  })

  it('API_BASE_URL: no embedded api; the web is given that url', async () => {
    const external = await holdPort()
    const [webPort, apiPort] = await freePorts(2)
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort), API_BASE_URL: `http://127.0.0.1:${external}` })
    await run.waitFor('Cardlane is running')
    expect(run.output()).toContain(`api: http://127.0.0.1:${external} (API_BASE_URL)`)
    const env = await (await fetch(`http://127.0.0.1:${webPort}/env`)).json()
    expect(env.API_BASE_URL).toBe(`http://127.0.0.1:${external}`)
    expect(childPids(run.child.pid!).map(commandOf).join('\n')).not.toContain('build/api.js')
    expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(false)

    run.child.kill('SIGTERM')
    expect(await exitWithin(run)).toBe(0)
    expect(await answers(`http://127.0.0.1:${webPort}/healthcheck`)).toBe(false)
  })

  it('API_HOST: the embedded api listens there and the web calls it there', async () => {
    const [[webPort], [apiPort]] = [await freePorts(1), await freePorts(1, '127.0.0.2')]
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort), API_HOST: '127.0.0.2' })
    await run.waitFor('Cardlane is running')
    expect(await answers(`http://127.0.0.2:${apiPort}/healthz`)).toBe(true)
    expect(await answers(`http://127.0.0.1:${apiPort}/healthz`)).toBe(false)
    const env = await (await fetch(`http://127.0.0.1:${webPort}/env`)).json()
    expect(env.API_BASE_URL).toBe(`http://127.0.0.2:${apiPort}`)
  })
})

describe('the console of npm start and npm run dev', () => {
  /** Lines exactly as pino writes them (the web and the api log with pino). */
  function pinoLines(service: string, write: (log: Logger) => void): string[] {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trimEnd().split('\n'))
        done()
      },
    })
    const log = pino({ base: { service } }, stream)
    write(log)
    return lines
  }

  it('one line per request; none for static files and health checks that worked', () => {
    const format = createConsoleFormat()
    const lines = pinoLines('web', (log) => {
      log.info({ method: 'GET', path: '/account', status: 200, ms: 12 }, 'request')
      log.info({ method: 'GET', path: '/assets/root-ABC.js', status: 200, ms: 1 }, 'request')
      log.info({ method: 'GET', path: '/favicon.svg', status: 200, ms: 1 }, 'request')
      log.info({ method: 'GET', path: '/healthcheck', status: 200, ms: 1 }, 'request')
      log.info({ method: 'GET', path: '/assets/missing.js', status: 404, ms: 1 }, 'request')
    })
    const shown = lines.flatMap((line) => format('web', line))
    expect(shown).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d web GET \/account 200 12ms$/),
      expect.stringMatching(/GET \/assets\/missing\.js 404/),
    ])
  })

  it('the api business code when it differs from the status; warnings and errors with their level and stack', () => {
    const format = createConsoleFormat()
    const lines = pinoLines('api', (log) => {
      log.info({ method: 'POST', path: '/auth/login', status: 200, code: 1001, ms: 40 }, 'request')
      log.error({ err: new Error('database went away') }, 'request failed')
    })
    const shown = lines.flatMap((line) => format('api', line))
    expect(shown[0]).toMatch(/api POST \/auth\/login 200 code 1001 40ms$/)
    expect(shown[1]).toMatch(/api ERROR request failed$/)
    expect(shown[2]).toBe('    Error: database went away')
  })

  it('a mail with a code is one line; other lines pass through; LOG_FORMAT=json passes everything', () => {
    const mail = [
      '',
      '----- mail (MAIL_TRANSPORT is not smtp) -----',
      'From: Cardlane <no-reply@cardlane.local>',
      'To: ada@example.com',
      'Subject: Your Cardlane code to sign in',
      'Date: Mon, 01 Jan 2024 00:00:00 GMT',
      '',
      'Your Cardlane verification code to sign in is:',
      '',
      '    123456',
      '',
      '----- end of mail -----',
      'Restarting build/api.js',
    ]
    const format = createConsoleFormat()
    const raw = createConsoleFormat({ raw: true })
    expect(mail.flatMap((line) => format('api', line))).toEqual(['Code for ada@example.com: 123456 (sign in)', 'Restarting build/api.js'])
    expect(mail.flatMap((line) => raw('api', line))).toEqual(mail)
  })
})
