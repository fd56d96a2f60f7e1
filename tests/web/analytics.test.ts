import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as analytics from '~/routes/analytics'
import { logger } from '~/utils/logger.server'
import { bodyLimitFor } from '../../server/body-limit'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { useSellingApi } from '../support/selling'
import { call, type CookieJar, makeRequest, ORIGIN, signedInJar } from '../support/web'
import { startMiniWeb, type MiniWeb } from './mini-web'

/**
 * POST /analytics, the collector's beacon: forwarded to the api with the session's token (the api
 * takes the person from it); dropped unread with DNT or GPC; 204 whatever happens (a failure is a
 * log line, never a 500); a body over 4 kB is refused by server.ts before it is read.
 */
const api = useSellingApi({ web: true })

const VISITOR = 'f0e1d2c3b4a5968778695a4b3c2d1e0f'
const rows = () => api.db.selectFrom('analytics_events').selectAll().orderBy('created_at').execute()

function beacon(body: unknown, init: { jar?: CookieJar; headers?: Record<string, string>; raw?: string } = {}) {
  const headers = new Headers({ 'Content-Type': 'text/plain;charset=UTF-8', ...init.headers })
  const cookie = init.jar?.header()
  if (cookie) headers.set('Cookie', cookie)
  const request = new Request(new URL('/analytics', ORIGIN), { method: 'POST', headers, body: init.raw ?? JSON.stringify(body) })
  return call(analytics.action, request)
}

const pageView = (extra: Record<string, unknown> = {}) => ({
  name: 'page_view',
  timestamp: Date.now(),
  path: '/wallet',
  visitorId: VISITOR,
  userAgent: 'Mozilla/5.0 (Linux; Android 14)',
  platform: 'Android',
  screenResolution: '390x844',
  language: 'en-NG',
  timezone: 'Africa/Lagos',
  ...extra,
})

describe('POST /analytics', () => {
  it("forwards a signed-in person's event: the person and e-mail from the token, never the body's", async () => {
    const email = newEmail('beacon')
    const { user, token } = await seedUser(api, { email })
    const other = await seedUser(api, { email: newEmail('other') })
    const jar = await signedInJar(token, { login_id: user.id, login_email: email })
    const res = await beacon(pageView({ userId: other.user.id, userEmail: other.user.email }), { jar })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    const stored = (await rows()).filter((r) => r.user_id === user.id)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ name: 'page_view', visitor_id: VISITOR })
    expect(JSON.parse(stored[0].context_json!)).toMatchObject({ path: '/wallet', platform: 'Android', timezone: 'Africa/Lagos' })
    // SPEC §3: the event carries the signed-in person's e-mail, the token's, never the body's.
    expect(JSON.stringify(stored)).toContain(email)
    expect(JSON.stringify(await rows())).not.toContain(other.user.email)
    expect((await rows()).some((r) => r.user_id === other.user.id)).toBe(false)
  })

  it("forwards a visitor's page view without a person", async () => {
    const visitor = 'visitor-0000000000000001'
    expect((await beacon(pageView({ visitorId: visitor }))).status).toBe(204)
    const stored = (await rows()).filter((r) => r.visitor_id === visitor)
    expect(stored.map((r) => r.user_id)).toEqual([null])
  })

  it('drops everything from a browser with Do Not Track or Global Privacy Control, unread', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('dnt') })
    const jar = await signedInJar(token)
    const before = (await rows()).length
    for (const headers of [{ DNT: '1' }, { 'Sec-GPC': '1' }, { DNT: '1', 'Sec-GPC': '1' }] as Record<string, string>[]) {
      expect((await beacon(pageView(), { jar, headers })).status).toBe(204)
      expect((await beacon({ name: 'login' }, { jar, headers })).status).toBe(204)
    }
    expect((await rows()).length).toBe(before)
    expect((await rows()).some((r) => r.user_id === user.id)).toBe(false)
    // DNT: 0 is no refusal.
    expect((await beacon({ name: 'login' }, { jar, headers: { DNT: '0' } })).status).toBe(204)
    expect((await rows()).filter((r) => r.user_id === user.id)).toHaveLength(1)
  })

  it('answers 204 to malformed events, stores nothing, and logs one line each; never a 500', async () => {
    const warn = vi.spyOn(logger, 'warn')
    try {
      const before = (await rows()).length
      const hostile = [
        '',
        'not json',
        '[]',
        'null',
        '{"name":',
        '{"__proto__":{"admin":true},"name":"page_view"}',
        JSON.stringify({ name: 'purchase' }),
      ]
      for (const raw of hostile) {
        const res = await beacon(null, { raw })
        expect(res.status, raw).toBe(204)
      }
      for (const body of [
        pageView({ path: '/order/1?token=abc' }),
        pageView({ visitorId: 'x' }),
        pageView({ extra: 1 }),
        { name: 'page_view', timestamp: 'now' },
      ]) {
        expect((await beacon(body)).status).toBe(204)
      }
      expect((await rows()).length).toBe(before)
      expect(warn.mock.calls.filter(([, message]) => message === 'analytics event dropped').length).toBe(hostile.length + 4)
    } finally {
      warn.mockRestore()
    }
  })

  it('answers 204 and logs a line when the api cannot be reached', async () => {
    const warn = vi.spyOn(logger, 'warn')
    const apiUrl = process.env.API_BASE_URL
    process.env.API_BASE_URL = 'http://127.0.0.1:9'
    try {
      const res = await beacon(pageView())
      expect(res.status).toBe(204)
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ err: expect.stringMatching(/connect|network/i) }),
        'analytics event not stored',
      )
    } finally {
      process.env.API_BASE_URL = apiUrl
      warn.mockRestore()
    }
  })

  it('GET answers 405, never a page', async () => {
    const res = await call(analytics.loader, makeRequest('/analytics'))
    expect(res.status).toBe(405)
    expect(res.headers.get('Allow')).toBe('POST')
  })
})

describe('POST /analytics over HTTP (server.ts)', () => {
  let web: MiniWeb
  beforeAll(async () => {
    web = await startMiniWeb([{ id: 'routes/analytics', path: 'analytics', module: analytics }])
  })
  afterAll(async () => {
    await web?.close()
  })
  const post = (body: string, headers: Record<string, string> = {}) =>
    web.raw({
      method: 'POST',
      path: '/analytics',
      body,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: web.url, ...headers },
    })

  it('has a 4 kB limit: a body over it is refused with 413 before it is read, with or without Content-Length', async () => {
    expect(bodyLimitFor('/analytics')).toEqual({ maxBytes: 4096 })
    const before = (await rows()).length
    const big = JSON.stringify(pageView({ userAgent: 'u'.repeat(5000) }))
    expect((await post(big)).status).toBe(413)
    expect((await post(big, { 'transfer-encoding': 'chunked' })).status).toBe(413)
    expect((await rows()).length).toBe(before)
    const ok = await post(JSON.stringify(pageView({ visitorId: 'visitor-over-http-000001' })))
    expect(ok.status).toBe(204)
    expect((await rows()).some((r) => r.visitor_id === 'visitor-over-http-000001')).toBe(true)
  })

  it('refuses a beacon from another site (the cross-site guard), and stores nothing', async () => {
    const before = (await rows()).length
    const res = await post(JSON.stringify(pageView()), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(res.status).toBe(403)
    expect((await rows()).length).toBe(before)
  })
})
