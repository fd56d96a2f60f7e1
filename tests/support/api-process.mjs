// The api and the web as their own processes, for tests and benchmarks that stop, kill or restart
// them: one esbuild bundle of each entry (what `npm run build` makes of it), a free port, a start
// that waits until the process answers. Plain JavaScript so scripts/*.mjs can use it too.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { build } from 'esbuild'
import { esbuildTarget } from '../../scripts/lib/node-version.mjs'

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')

/**
 * Bundles api/main.ts (and server.ts with `web: true`) into tmp/<name>/ as build-server.mjs does.
 * @param {string} name
 * @param {{ web?: boolean }} [options]
 * @returns {Promise<{ dir: string, api: string, web: string }>}
 */
export async function bundleProcesses(name, options = {}) {
  const dir = path.join(root, 'tmp', name)
  mkdirSync(dir, { recursive: true })
  const entryPoints = { api: path.join(root, 'api/main.ts'), ...(options.web && { web: path.join(root, 'server.ts') }) }
  await build({
    entryPoints,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: esbuildTarget,
    packages: 'external',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  })
  return { dir, api: path.join(dir, 'api.mjs'), web: path.join(dir, 'web.mjs') }
}

/** The newest modification time of the sources the Remix build is made from. */
function newestRemixSource() {
  const files = ['app', 'contract'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name)),
  )
  return Math.max(
    ...[...files, ...['vite.config.ts', 'vite.ops.config.ts', 'vite.shared.ts'].map((file) => path.join(root, file))].map(
      (file) => statSync(file).mtimeMs,
    ),
  )
}

/**
 * Makes the two Remix builds (build/server and build/ops/server, what the web bundle loads) unless
 * those on disk are newer than their sources: a web bundle made now must not run a build made from
 * other sources. The customer's build empties build/, so the console's is made after it.
 */
export function ensureRemixBuild() {
  const built = [path.join(root, 'build/server/index.js'), path.join(root, 'build/ops/server/index.js')]
  // Test files run in parallel workers: one builds while the others wait, so no two builds write
  // build/ at once and no test loads a half-written one. The lock is outside build/, which a build empties.
  const lock = path.join(root, 'tmp/remix-build-lock')
  mkdirSync(path.dirname(lock), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock older than any build is one a killed run left behind.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true })
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250)
    }
  }
  try {
    const sources = newestRemixSource()
    if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources && isProductionBuild(file))) return
    // NODE_ENV from the test runner ("test") would make a development build (React's jsxDEV),
    // which the web process, in production, cannot render: every page would answer 500.
    const env = { ...process.env, NODE_ENV: 'production' }
    for (const args of [
      ['remix', 'vite:build'],
      ['remix', 'vite:build', '--config', 'vite.ops.config.ts'],
    ]) {
      const made = spawnSync('npx', args, { cwd: root, stdio: 'ignore', env })
      if (made.status !== 0) throw new Error(`${args.join(' ')} failed`)
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Remix writes the mode it built in into the server build. @param {string} built */
const isProductionBuild = (built) => readFileSync(built, 'utf8').includes('mode = "production"')

/** @returns {Promise<number>} a port of 127.0.0.1 nobody listens on now */
export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address())
      s.close(() => resolve(port))
    })
  })

/**
 * Waits until `url` answers 200 (the child may die first: then it throws).
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} what
 */
export async function waitUntilAnswers(url, child, what) {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGKILL')
  throw new Error(`${what} did not start${child.exitCode !== null ? ` (exit ${child.exitCode})` : ''}`)
}

/**
 * @typedef {{ bundle: string, port: number, env?: Record<string, string | undefined>, stdio?: import('node:child_process').StdioOptions }} ProcessOptions
 */

/**
 * The api bundle on 127.0.0.1:port (development settings, e-mail to the console, silent logs
 * unless env says), started when its /healthz answers.
 * @param {ProcessOptions & { databaseUrl: string }} options
 * @returns {Promise<import('node:child_process').ChildProcess>}
 */
export async function startApiProcess({ bundle, port, databaseUrl, env = {}, stdio = ['ignore', 'ignore', 'pipe'] }) {
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      MAIL_TRANSPORT: 'console',
      ...env,
    },
    stdio,
  })
  await waitUntilAnswers(`http://127.0.0.1:${port}/healthz`, child, 'the api process')
  return child
}

/**
 * The web bundle on 127.0.0.1:port in front of `apiUrl`, with the Remix build under build/
 * (`npm run build`), started when its /healthz answers.
 * @param {ProcessOptions & { apiUrl: string, sessionSecret: string }} options
 * @returns {Promise<import('node:child_process').ChildProcess>}
 */
export async function startWebProcess({ bundle, port, apiUrl, sessionSecret, env = {}, stdio = ['ignore', 'ignore', 'pipe'] }) {
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      API_BASE_URL: apiUrl,
      SESSION_SECRET: sessionSecret,
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio,
  })
  await waitUntilAnswers(`http://127.0.0.1:${port}/healthz`, child, 'the web process')
  return child
}

/**
 * Resolves with the exit code once the child has exited.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<number | null>}
 */
export const exited = (child) =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)))
