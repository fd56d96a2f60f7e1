import http from 'node:http'
import type { ServerBuild } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as opsRoot from '~/ops/root'
import { createWebMetrics } from '../../server/metrics'
import { webAppOf } from '../../server/page-path'
import { serverBuildOf } from '../support/server-build'
import { startWeb, testBuild, type RunningWeb } from './web-app'

/**
 * The console is a build of its own (decision 052), served by the same web process: its pages,
 * their data and its lazy route discovery go to its build, everything else to the customer's.
 * Its test build has the console's real root and stand-in desks that say which build answered.
 */
const OPS_VERSION = 'ops-test'
function opsBuild(): ServerBuild {
  return serverBuildOf(
    [
      { id: 'root', parentId: undefined, path: '', module: opsRoot },
      { id: 'routes/ops', parentId: 'root', path: 'ops', module: { loader: () => Response.json({ app: 'ops' }) } },
      {
        id: 'routes/ops.review',
        parentId: 'root',
        path: 'ops/review',
        module: { loader: () => ({ desk: 'review' }), action: () => ({ ok: true }), default: () => null },
      },
    ],
    { base: '/ops/', version: OPS_VERSION },
  )
}

/** node:http, which sends the Host it is given (fetch does not). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      .on('error', reject)
  })
}

describe('which build answers a path', () => {
  const q = (s: string) => new URLSearchParams(s)
  it('the console: /ops and every path under it, with their single-fetch data', () => {
    for (const p of ['/ops', '/ops/', '/ops/review', '/ops/review/12', '/ops.data', '/ops/review.data', '/ops/login'])
      expect(webAppOf(p, q(''))).toBe('ops')
    for (const p of ['/', '/_root.data', '/wallet', '/wallet.data', '/opsx', '/opsx/review', '/login', '/assets/ops-x.js'])
      expect(webAppOf(p, q(''))).toBe('customer')
  })

  it("lazy route discovery's /__manifest: by the paths it asks about", () => {
    expect(webAppOf('/__manifest', q('p=/ops/review&p=/ops/audit&version=x'))).toBe('ops')
    expect(webAppOf('/__manifest', q('p=/&p=/wallet&version=x'))).toBe('customer')
    expect(webAppOf('/__manifest', q('p=/&p=/ops/review&version=x'))).toBe('both')
    expect(webAppOf('/__manifest', q('version=x'))).toBe('customer')
  })
})

describe('one web process, two builds', () => {
  let web: RunningWeb
  const metrics = createWebMetrics(testBuild(), opsBuild())
  beforeAll(async () => {
    web = await startWeb({ ops: opsBuild(), metrics })
  })
  afterAll(async () => {
    await web.close()
  })

  it("the console's pages and data are its build's; the customer's build never sees them", async () => {
    expect(await (await fetch(`${web.url}/ops`)).json()).toEqual({ app: 'ops' })
    const data = await fetch(`${web.url}/ops/review.data`)
    expect(data.status).toBe(200)
    expect(data.headers.get('content-type')).toMatch(/^text\/x-script/)
    expect(await data.text()).toContain('review')
    // The customer's pages are the customer's build's: its login page, and its 404 for what it does not have.
    const login = await fetch(`${web.url}/login`)
    expect(login.status).toBe(200)
    const html = await login.text()
    expect(html).toContain('/assets/manifest-test.js')
    expect(html).not.toContain('/ops/assets')
    expect((await fetch(`${web.url}/opsx`)).status).toBe(404)
  })

  it("a console page is the console's document: its scripts under /ops/assets, none of the customer's", async () => {
    const res = await fetch(`${web.url}/ops/review`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`/ops/assets/manifest-${OPS_VERSION}.js`)
    expect(html).not.toMatch(/["']\/assets\//)
    // The same document headers as a customer page: the nonce'd policy and a request id.
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.headers.get('x-request-id')).toBeTruthy()
  })

  it("lazy route discovery: each app's manifest holds its own routes only", async () => {
    const ops = await fetch(`${web.url}/__manifest?p=/ops/review&version=${OPS_VERSION}`)
    expect(ops.status).toBe(200)
    expect(Object.keys((await ops.json()) as object)).toEqual(expect.arrayContaining(['routes/ops.review']))
    const customer = await fetch(`${web.url}/__manifest?p=/login&version=test`)
    expect(customer.status).toBe(200)
    const ids = Object.keys((await customer.json()) as object)
    expect(ids).toContain('routes/login')
    expect(ids.filter((id) => id.includes('ops'))).toEqual([])
    // A customer page following a link into the console: not in its manifest, so a document load.
    const crossing = await fetch(`${web.url}/__manifest?p=/ops/review&version=test`)
    expect(crossing.status).toBe(204)
    expect(crossing.headers.get('x-remix-reload-document')).toBe('true')
    // Both apps' paths at once: neither manifest, each discovered when followed.
    const both = await fetch(`${web.url}/__manifest?p=/login&p=/ops/review&version=test`)
    expect(both.status).toBe(204)
    expect(both.headers.get('x-remix-reload-document')).toBe('true')
  })

  it("the console's assets at /ops/assets, precompressed and immutable; never at /assets", async () => {
    const res = await get(`${web.url}/ops/assets/entry.client-TEST.js`, { 'Accept-Encoding': 'br' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const plain = await fetch(`${web.url}/ops/assets/entry.client-TEST.js`, { headers: { 'Accept-Encoding': 'identity' } })
    expect(await plain.text()).toContain('// ops-client')
    const customer = await fetch(`${web.url}/assets/entry.client-TEST.js`, { headers: { 'Accept-Encoding': 'identity' } })
    expect(await customer.text()).toContain('// client')
  })

  it("the render metrics name a desk's pattern from the console's tree, a screen's from the customer's", async () => {
    await fetch(`${web.url}/ops/review.data`)
    await fetch(`${web.url}/login`)
    const text = await metrics.registry.getSingleMetricAsString('web_render_duration_seconds')
    expect(text).toMatch(/route="\/ops\/review"/)
    expect(text).toMatch(/route="\/login"/)
  })

  it("the cross-site guard and the body limits stand in front of the console's build too", async () => {
    const refused = await fetch(`${web.url}/ops/review`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    })
    expect(refused.status).toBe(403)
    const tooLarge = await fetch(`${web.url}/ops/staff`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a='.padEnd(2 * 1024 * 1024, 'x'),
    })
    expect(tooLarge.status).toBe(413)
  })
})

describe('OPS_HOST: the console on its own host name', () => {
  let web: RunningWeb
  beforeAll(async () => {
    process.env.OPS_HOST = 'Ops.Example.test'
    web = await startWeb({ ops: opsBuild() })
  })
  afterAll(async () => {
    delete process.env.OPS_HOST
    await web.close()
  })

  it('answers /ops, its data and its assets on that host only; elsewhere as if there were no console', async () => {
    for (const path of ['/ops', '/ops/review', '/ops/review.data', '/ops/assets/entry.client-TEST.js']) {
      const elsewhere = await get(`${web.url}${path}`, { Host: 'www.example.test' })
      expect(elsewhere.status, path).toBe(404)
      expect(elsewhere.body, path).toBe('Not found.')
      expect((await get(`${web.url}${path}`, { Host: 'ops.example.test' })).status, path).toBe(200)
    }
    expect((await get(`${web.url}/__manifest?p=/ops/review&version=${OPS_VERSION}`, { Host: 'www.example.test' })).status).toBe(404)
    // The customer's pages stay where they were.
    expect((await get(`${web.url}/login`, { Host: 'www.example.test' })).status).toBe(200)
  })
})
