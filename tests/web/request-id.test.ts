import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as analytics from '~/routes/analytics'
import { logger } from '~/utils/logger.server'
import { createLoadContext } from '../../server/load-context'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { call, ORIGIN, signedInJar } from '../support/web'
import { startWeb, TEST_FAULT_MESSAGE, type RunningWeb } from './web-app'

/**
 * One request, one id: the web makes it (or takes a trusted proxy's X-Request-Id), answers it as
 * X-Request-Id and hands it to the api, whose log lines for that request carry it.
 */
const api = useTestApi()
let web: RunningWeb
let behindProxy: RunningWeb
beforeAll(async () => {
  web = await startWeb()
  process.env.TRUST_PROXY = 'loopback'
  behindProxy = await startWeb()
  delete process.env.TRUST_PROXY
})
afterAll(async () => {
  await web?.close()
  await behindProxy?.close()
})

const PROXY_ID = 'edge7d1f0c2b9a8e4f6a8d3c5b7e9f1a2c4d'

describe('request id', () => {
  it('is made here, answered, and sent to the api with every call', async () => {
    const { token } = await seedUser(api, { email: newEmail('rid') })
    const res = await fetch(`${web.url}/account`, { headers: { cookie: (await signedInJar(token)).header(), 'x-request-id': PROXY_ID } })
    await res.text()
    const id = res.headers.get('x-request-id')!
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const lines = api.logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === id)
    expect(lines.map((l) => l.path)).toContain('/v1/user/index')
  })

  it("takes a trusted proxy's id, and never a hostile one", async () => {
    const trusted = await fetch(`${behindProxy.url}/healthz`, { headers: { 'x-request-id': PROXY_ID } })
    expect(trusted.headers.get('x-request-id')).toBe(PROXY_ID)
    for (const hostile of ['y'.repeat(4096), 'a b c d e f g h', '<script>alert(1)</script>']) {
      const res = await fetch(`${behindProxy.url}/healthz`, { headers: { 'x-request-id': hostile } })
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

describe('the error page', () => {
  const page = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${web.url}${path}`, { redirect: 'manual', ...init })
    return { status: res.status, id: res.headers.get('x-request-id')!, html: await res.text() }
  }

  it('shows the request id as a Reference for a bug, and nothing of the error', async () => {
    const { status, id, html } = await page('/test/fault')
    expect(status).toBe(500)
    expect(html).toContain('Something went wrong on our side')
    expect(html).toContain(`Reference: <code data-request-id="${id}">${id}</code>`)
    for (const leak of [TEST_FAULT_MESSAGE, 'hunter2', '/srv/cardlane', 'secret.ts']) expect(html, leak).not.toContain(leak)
  })

  it('shows it when the api cannot be reached (503), and not for a page that is not found or a refused form', async () => {
    const before = process.env.API_BASE_URL
    process.env.API_BASE_URL = 'http://127.0.0.1:9'
    try {
      const down = await page('/account', { headers: { cookie: (await signedInJar('a'.repeat(43))).header() } })
      expect(down.status).toBe(503)
      expect(down.html).toContain('We cannot reach our service right now')
      expect(down.html).toContain(`Reference: <code data-request-id="${down.id}">${down.id}</code>`)
    } finally {
      process.env.API_BASE_URL = before
    }
    const missing = await page('/no/such/page')
    expect(missing.status).toBe(404)
    expect(missing.html).not.toContain('Reference:')
    const refused = await page('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email.__proto__.x=1',
    })
    expect(refused.status).toBe(400)
    expect(refused.html).not.toContain('Reference:')
  })
})

describe("the web's log lines", () => {
  const spies = () => (['debug', 'info', 'warn', 'error'] as const).map((level) => vi.spyOn(logger, level))
  afterEach(() => vi.restoreAllMocks())
  const fieldsOf = (spy: ReturnType<typeof spies>[number]) => spy.mock.calls.map((c) => c[0] as unknown as Record<string, unknown>)

  it('of a request (a bug, a refused form) each carry its request id', async () => {
    const logged = spies()
    const fault = await fetch(`${web.url}/test/fault`)
    await fault.text()
    const refused = await fetch(`${web.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email.__proto__.x=1',
    })
    await refused.text()
    const lines = logged.flatMap(fieldsOf)
    expect(lines.length).toBeGreaterThanOrEqual(2)
    const ids = [fault, refused].map((r) => r.headers.get('x-request-id'))
    for (const line of lines) expect(ids, JSON.stringify(line)).toContain(line.requestId)
    expect(lines.map((l) => l.requestId)).toEqual(expect.arrayContaining(ids))
  })

  it("of an action carry the load context's request id", async () => {
    const logged = spies()
    const context = createLoadContext({ clientAddress: '127.0.0.1', requestId: 'rid-analytics-0001' })
    const post = (body: string) =>
      call(
        analytics.action,
        new Request(new URL('/analytics', ORIGIN), { method: 'POST', body, headers: { 'content-type': 'application/json' } }),
        {},
        undefined,
        context,
      )
    expect((await post('not json')).status).toBe(204)
    expect((await post('{"name": 5}')).status).toBe(204)
    const lines = logged.flatMap(fieldsOf)
    expect(lines.length).toBeGreaterThanOrEqual(2)
    for (const line of lines) expect(line.requestId, JSON.stringify(line)).toBe('rid-analytics-0001')
  })
})
