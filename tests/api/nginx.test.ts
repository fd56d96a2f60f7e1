import { spawnSync, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleProcesses, ensureRemixBuild, exited, freePort, root, startApiProcess, startWebProcess } from '../support/api-process.mjs'
import { createTestDatabase, type TestDatabase } from '../support/db'
import { NGINX, nginxConfig, nginxPresent, startNginx } from '../support/nginx-process.mjs'

/**
 * docs/deploy.md's set-up, tried: Debian's nginx with deploy/nginx.conf in front of two web
 * processes, each in front of its own api process, all on one throw-away database (TEST_DB).
 * Pages and /readyz answer through nginx, and a rolling restart of the webs under a steady load
 * drops no request. Skipped, saying so, where nginx is not installed.
 */
const present = nginxPresent()
if (!present) console.log(`nginx.test.ts skipped: no nginx at ${NGINX} (apt-get install -y nginx, or set NGINX_PATH)`)

const SESSION_SECRET = 'nginx-test-session-secret-0123456789abcdef0123456789'

describe.skipIf(!present)('two webs and two apis behind nginx', () => {
  let database: TestDatabase
  let bundles: { api: string; web: string }
  const apis: ChildProcess[] = []
  const webs: ChildProcess[] = []
  const apiPorts: number[] = []
  const webPorts: number[] = []
  let nginx: { child: ChildProcess; dir: string; conf: string }
  let base: string

  const startWeb = (i: number) =>
    startWebProcess({
      bundle: bundles.web,
      port: webPorts[i],
      apiUrl: `http://127.0.0.1:${apiPorts[i]}`,
      sessionSecret: SESSION_SECRET,
      env: { TRUST_PROXY: 'loopback' },
    })

  beforeAll(async () => {
    bundles = await bundleProcesses('nginx', { web: true })
    ensureRemixBuild()
    database = await createTestDatabase()
    for (let i = 0; i < 2; i++) {
      apiPorts.push(await freePort())
      // One at a time: the first migrates, the second finds the schema made.
      apis.push(await startApiProcess({ bundle: bundles.api, port: apiPorts[i], databaseUrl: database.url }))
    }
    for (let i = 0; i < 2; i++) {
      webPorts.push(await freePort())
      webs.push(await startWeb(i))
    }
    const port = await freePort()
    nginx = await startNginx({ port, webPorts })
    base = `http://127.0.0.1:${port}`
  }, 300_000)

  afterAll(async () => {
    for (const child of [nginx?.child, ...webs, ...apis]) {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM')
        await exited(child)
      }
    }
    if (nginx) rmSync(nginx.dir, { recursive: true, force: true })
    await database?.drop()
  }, 60_000)

  it('the shipped config passes nginx -t with this run’s ports', () => {
    const shipped = spawnSync(NGINX, ['-t', '-p', nginx.dir, '-e', 'stderr', '-c', path.join(root, 'deploy/nginx.conf')], {
      encoding: 'utf8',
    })
    expect(shipped.stderr).toContain('syntax is ok')
    expect(nginxConfig({ dir: nginx.dir, port: 1, webPorts: [2, 3] })).toContain('server 127.0.0.1:3 ')
  })

  it('serves a page, a page made from the api and /readyz through nginx', async () => {
    const login = await fetch(`${base}/login`)
    expect(login.status).toBe(200)
    expect(await login.text()).toContain('<title>Login - Cardlane</title>')
    // The catalogue comes from the api: 503 when the web cannot reach it.
    const catalogue = await fetch(`${base}/catalogue`)
    expect(catalogue.status).toBe(200)
    // nginx made the id and the web took it (TRUST_PROXY=loopback): nginx's ids are 32 hex digits.
    expect(catalogue.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/)
    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(200)
    // The console is the process's second build (decision 052): its sign-in, its assets under /ops/assets.
    const opsLogin = await fetch(`${base}/ops/login`)
    expect(opsLogin.status).toBe(200)
    const html = await opsLogin.text()
    expect(html).toContain('<title>Staff sign-in - Cardlane Ops</title>')
    const script = /\/ops\/assets\/manifest-\w+\.js/.exec(html)?.[0]
    expect((await fetch(`${base}${script}`)).status).toBe(200)
  })

  it('drops no request while each web in turn is stopped and started again under load', async () => {
    let stop = false
    const dropped: string[] = []
    let answered = 0
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const target = (n + i) % 2 === 0 ? '/login' : '/catalogue'
        try {
          const res = await fetch(`${base}${target}`, { redirect: 'manual' })
          await res.arrayBuffer()
          if (res.status >= 200 && res.status < 400) answered++
          else dropped.push(`${target}: ${res.status}`)
        } catch (error) {
          dropped.push(`${target}: ${(error as Error).message}`)
        }
      }
    }
    const clients = Array.from({ length: 8 }, (_, n) => client(n))
    const answeredBy = async (count: number) => {
      while (answered < count) await new Promise((r) => setTimeout(r, 50))
    }
    await answeredBy(20)
    for (let i = 0; i < 2; i++) {
      webs[i].kill('SIGTERM')
      expect(await exited(webs[i])).toBe(0)
      webs[i] = await startWeb(i)
      // nginx counts the stopped web as failed for fail_timeout (deploy/nginx.conf): stopping the
      // other one before the new one is taken back would leave no live upstream.
      await new Promise((r) => setTimeout(r, 6_000))
      await answeredBy(answered + 20)
    }
    stop = true
    await Promise.all(clients)
    console.log(`rolling restart of 2 webs behind nginx, 8 clients: ${answered} answered, ${dropped.length} dropped`)
    expect(dropped).toEqual([])
    expect(answered).toBeGreaterThan(40)
  }, 120_000)
})
