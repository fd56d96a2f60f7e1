import { execFile, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/api-process.mjs'
import { createTestDatabase, type TestDatabase } from '../support/db'

/**
 * The image the Dockerfile makes, run as docs/deploy.md says: non-root, read-only root file
 * system, the data volume, the api and the web from one image, each ready on /readyz, healthy by
 * the Dockerfile's HEALTHCHECK and stopped cleanly (exit 0). It runs against an image already
 * built (building one takes minutes): skipped, saying why, without podman or without the image.
 *   scripts/build-base-image.sh && podman build --format docker --isolation chroot --build-arg NODE_VERSION=$(cat .nvmrc) -t cardlane .
 */
const IMAGE = process.env.CARDLANE_IMAGE ?? 'localhost/cardlane:latest'
const PODMAN = process.env.PODMAN_PATH ?? 'podman'

function skipReason(): string | null {
  if (spawnSync(PODMAN, ['--version'], { stdio: 'ignore' }).status !== 0) return `no ${PODMAN} on this machine`
  if (spawnSync(PODMAN, ['image', 'exists', IMAGE], { stdio: 'ignore' }).status !== 0) {
    return `no image ${IMAGE}: build it with scripts/build-base-image.sh && podman build --format docker --isolation chroot --build-arg NODE_VERSION=$(cat .nvmrc) -t cardlane .`
  }
  return null
}
const reason = skipReason()
if (reason) console.log(`image.test.ts skipped: ${reason}`)

const run = promisify(execFile)
// Debian's crun refuses a machine whose cgroups are half v1, half v2 (this one); runc takes it.
const RUNTIME = ['/usr/sbin/runc', '/usr/bin/runc'].some((p) => existsSync(p)) ? ['--runtime', 'runc'] : []
const podman = async (...args: string[]) => (await run(PODMAN, [...RUNTIME, ...args], { maxBuffer: 10 * 1024 * 1024 })).stdout.trim()

/** Polls `url` until it answers 200; the milliseconds it took, or a throw after `limitMs`. */
async function readyWithin(url: string, limitMs: number, since = Date.now()): Promise<number> {
  while (Date.now() - since < limitMs) {
    try {
      if ((await fetch(url)).status === 200) return Date.now() - since
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} did not answer 200`)
}

describe.skipIf(reason !== null)(`the image ${IMAGE}`, () => {
  const tag = randomBytes(4).toString('hex')
  const volume = `cardlane-test-data-${tag}`
  const api = `cardlane-test-api-${tag}`
  const web = `cardlane-test-web-${tag}`
  let database: TestDatabase
  let apiPort: number
  let webPort: number

  /** As in production: non-root (the image's USER), read-only root, /tmp in memory, the volume. */
  const runArgs = (name: string, env: Record<string, string>, command: string[] = []) => [
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    '--read-only',
    '--tmpfs',
    '/tmp',
    // Podman's default limits are above what a process may set here; these are plenty.
    '--ulimit',
    'nofile=4096:4096',
    '--ulimit',
    'nproc=4096:4096',
    '--volume',
    `${volume}:/app/data`,
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    IMAGE,
    ...command,
  ]

  beforeAll(async () => {
    database = await createTestDatabase()
    apiPort = await freePort()
    webPort = await freePort()
    await podman('volume', 'create', volume)
  })

  afterAll(async () => {
    for (const name of [web, api]) await podman('rm', '--force', '--time', '0', name).catch(() => undefined)
    await podman('volume', 'rm', '--force', volume).catch(() => undefined)
    await database?.drop()
  }, 120_000)

  it('is made to run as the node user, with the data volume and a HEALTHCHECK', async () => {
    const [image] = JSON.parse(await podman('image', 'inspect', IMAGE)) as [
      { Config: { User?: string; Volumes?: Record<string, unknown> }; Healthcheck?: { Test?: string[] } },
    ]
    expect(image.Config.User).toBe('node')
    expect(Object.keys(image.Config.Volumes ?? {})).toContain('/app/data')
    expect(image.Healthcheck?.Test?.join(' ')).toContain('/healthz')
  })

  it('runs the api and the web, read-only and non-root, ready, healthy and stopped with exit 0', async () => {
    // SQLite lives in the volume; PostgreSQL (TEST_DB=postgres) is this machine's, reached over the host network.
    const databaseUrl = database.kind === 'sqlite' ? 'file:/app/data/cardlane.db' : database.url
    const secret = () => randomBytes(24).toString('hex')
    const started = Date.now()
    await podman(
      ...runArgs(
        api,
        {
          API_PORT: String(apiPort),
          API_HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          TRUST_PROXY: 'loopback',
          MAIL_TRANSPORT: 'console',
          PIN_PEPPER: secret(),
          CODES_KEY: secret(),
          LOG_LEVEL: 'warn',
        },
        ['node', 'build/api.js'],
      ),
    )
    const apiReadyMs = await readyWithin(`http://127.0.0.1:${apiPort}/readyz`, 90_000, started)
    const webStarted = Date.now()
    await podman(
      ...runArgs(web, {
        PORT: String(webPort),
        HOST: '127.0.0.1',
        API_BASE_URL: `http://127.0.0.1:${apiPort}`,
        SESSION_SECRET: secret(),
        TRUST_PROXY: 'loopback',
        COOKIE_SECURE: 'false',
        LOG_LEVEL: 'warn',
      }),
    )
    const webReadyMs = await readyWithin(`http://127.0.0.1:${webPort}/readyz`, 90_000, webStarted)
    console.log(`image ${IMAGE}: api ready on /readyz ${apiReadyMs} ms after podman run, web ${webReadyMs} ms`)

    const page = await fetch(`http://127.0.0.1:${webPort}/catalogue`)
    expect(page.status).toBe(200)

    expect(await podman('exec', api, 'id', '-u')).not.toBe('0')
    await expect(podman('exec', api, 'touch', '/app/written')).rejects.toThrow(/Read-only file system/)
    if (database.kind === 'sqlite') expect(await podman('exec', api, 'ls', '/app/data')).toContain('cardlane.db')

    // The Dockerfile's HEALTHCHECK, as the engine runs it, for each role.
    for (const name of [api, web]) expect(spawnSync(PODMAN, [...RUNTIME, 'healthcheck', 'run', name]).status).toBe(0)

    for (const name of [web, api]) {
      await podman('stop', '--time', '30', name)
      expect(await podman('inspect', '--format', '{{.State.ExitCode}}', name)).toBe('0')
    }
  }, 240_000)
})
