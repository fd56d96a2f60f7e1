import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { analyticsApi } from '#contract/analytics'
import { funnelData } from '#contract/ops/money'
import { ANALYTICS_EVENTS_PER_WINDOW } from '../../api/routes/analytics'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { admin, TEST_ADMIN_TOKEN } from '../support/wallet'

/**
 * Analytics (SPEC §3, §4, §5): the web's collector stores events through POST /v1/analytics/event,
 * a visitor's page views too (optional auth); the person is the token's, never the body's; the
 * e-mail is never stored; once-per-user events once; bad events change nothing. The operators'
 * funnel (GET /admin/analytics/funnel, `npm run ops -- stats`) counts people per step and day.
 */
const api = useTestApi({ web: false })

const VISITOR = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'
const rows = () => api.db.selectFrom('analytics_events').selectAll().execute()
const event = (body: Record<string, unknown>, token?: string) => api.post<{ recorded: boolean }>('/v1/analytics/event', body, { token })
const person = async () => seedUser(api, { email: newEmail('analytics') })

describe('POST /v1/analytics/event', () => {
  it("stores a visitor's page view without a token: no person, the browser's visitor id, the device", async () => {
    const res = await event({
      name: 'page_view',
      timestamp: 1_700_000_000_000,
      path: '/order/:id',
      visitorId: VISITOR,
      userAgent: 'Mozilla/5.0 (iPhone)',
      platform: 'iOS',
      screenResolution: '390x844',
      language: 'en-NG',
      timezone: 'Africa/Lagos',
    })
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { recorded: true } })
    expect(analyticsApi.event.data.parse(res.body.data)).toEqual({ recorded: true })
    const [stored] = (await rows()).filter((r) => r.visitor_id === VISITOR)
    expect(stored).toMatchObject({ name: 'page_view', user_id: null, visitor_id: VISITOR, once_key: null, occurred_at: 1_700_000_000_000 })
    expect(JSON.parse(stored.context_json!)).toEqual({
      path: '/order/:id',
      userAgent: 'Mozilla/5.0 (iPhone)',
      platform: 'iOS',
      screenResolution: '390x844',
      language: 'en-NG',
      timezone: 'Africa/Lagos',
    })
  })

  it("takes the person and their e-mail from the token only: the body's userId and userEmail are ignored", async () => {
    const me = await person()
    const someoneElse = await person()
    const res = await event({ name: 'login', userId: someoneElse.user.id, userEmail: someoneElse.user.email }, me.token)
    expect(res.body.data).toEqual({ recorded: true })
    const mine = (await rows()).filter((r) => r.name === 'login')
    expect(mine.map((r) => r.user_id)).toEqual([me.user.id])
    expect(JSON.stringify(await rows())).not.toContain(someoneElse.user.email)
    // SPEC §3: the event carries the person's e-mail (the token's person's, never the body's).
    expect(JSON.parse(mine[0].context_json!)).toMatchObject({ userEmail: me.user.email })
  })

  it("does not store a person's event without a live token; a visitor's page view with a dead token counts as a visitor's", async () => {
    const before = (await rows()).length
    const forged = await event({ name: 'register', userId: 'u-forged' })
    expect(forged.body).toEqual({ code: 200, msg: 'success', data: { recorded: false } })
    const expired = await event({ name: 'withdrawal_created' }, 'not-a-live-token-at-all-0123456789abcdefghij')
    expect(expired.body.data).toEqual({ recorded: false })
    expect((await rows()).length).toBe(before)
    const view = await event({ name: 'page_view', path: '/', userId: 'u-forged' }, 'not-a-live-token-at-all-0123456789abcdefghij')
    expect(view.body.data).toEqual({ recorded: true })
    const stored = (await rows()).at(-1)!
    expect(stored.user_id).toBeNull()
    expect(JSON.stringify(stored)).not.toContain('u-forged')
  })

  it('stores first_successful_order once per person, however often and by whom it is sent', async () => {
    const a = await person()
    const b = await person()
    const sent = await Promise.all([1, 2, 3].map(() => event({ name: 'first_successful_order' }, a.token)))
    expect(sent.map((r) => r.body.data.recorded).sort()).toEqual([false, false, true])
    expect((await event({ name: 'first_successful_order' }, b.token)).body.data).toEqual({ recorded: true })
    const firsts = (await rows()).filter((r) => r.name === 'first_successful_order')
    expect(firsts.map((r) => r.user_id).sort()).toEqual([a.user.id, b.user.id].sort())
    expect(firsts.map((r) => r.once_key).sort()).toEqual(
      [`first_successful_order:${a.user.id}`, `first_successful_order:${b.user.id}`].sort(),
    )
    // Other key events are stored each time.
    await event({ name: 'order_submitted' }, a.token)
    await event({ name: 'order_submitted' }, a.token)
    expect((await rows()).filter((r) => r.name === 'order_submitted' && r.user_id === a.user.id)).toHaveLength(2)
  })

  it('refuses a malformed event with 400 naming the field, and stores nothing', async () => {
    const me = await person()
    const before = (await rows()).length
    const cases: [body: unknown, field: string][] = [
      [{}, 'name'],
      [{ name: 'Bad Name!' }, 'name'],
      [{ name: 'purchase' }, 'name'],
      [{ name: 'page_view', path: '/order/1?token=secret' }, 'path'],
      [{ name: 'page_view', path: 'https://evil.example/' }, 'path'],
      [{ name: 'page_view', visitorId: 'short' }, 'visitorId'],
      [{ name: 'page_view', visitorId: 'x'.repeat(65) }, 'visitorId'],
      [{ name: 'page_view', userAgent: 'u'.repeat(513) }, 'userAgent'],
      [{ name: 'page_view', timestamp: 'yesterday' }, 'timestamp'],
      [{ name: 'page_view', timestamp: -1 }, 'timestamp'],
      [{ name: 'page_view', userEmail: 42 }, 'userEmail'],
      [{ name: 'page_view', admin: true }, 'admin'],
      [['page_view'], ''],
    ]
    for (const [body, field] of cases) {
      for (const token of [undefined, me.token]) {
        const res = await event(body as Record<string, unknown>, token)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.code).toBe(400)
        if (field) expect(res.body.msg, JSON.stringify(body)).toContain(field)
      }
    }
    const raw = await api.post('/v1/analytics/event', undefined, { raw: '{"name":', headers: { 'content-type': 'application/json' } })
    expect(raw.status).toBe(400)
    expect((await rows()).length).toBe(before)
  })
})

describe('a cap per address', () => {
  it(`takes ${ANALYTICS_EVENTS_PER_WINDOW} events per address in 15 minutes, then 429 and nothing stored, until the window ends`, async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip }) // the web tells the api the visitor's address
    const send = (ip: string) =>
      api.post('/v1/analytics/event', { name: 'page_view', visitorId: `cap-${ip.replace(/\./g, '-')}-0000000` }, { headers: from(ip) })
    // The window of 203.0.113.7 one event short of full (as if it had sent the rest).
    await api.db
      .insertInto('rate_limits')
      .values({ key: 'ip:analytics:203.0.113.7', hits: ANALYTICS_EVENTS_PER_WINDOW - 1, reset_at: api.clock.now() + 15 * 60_000 })
      .execute()
    const before = (await rows()).length
    expect((await send('203.0.113.7')).status).toBe(200)
    const over = await send('203.0.113.7')
    expect(over.status).toBe(429)
    expect(over.body.code).toBe(429)
    expect((await rows()).length).toBe(before + 1)
    expect((await send('203.0.113.8')).status).toBe(200) // another address is not held back
    api.clock.advance(15 * 60_000 + 1)
    try {
      expect((await send('203.0.113.7')).status).toBe(200)
    } finally {
      api.clock.set(Date.now())
    }
  })
})

/** A moment of a day in Lagos (UTC+1, no daylight saving): the installation's time zone. */
const lagos = (day: string, time = '12:00') => Date.parse(`${day}T${time}:00+01:00`)

describe('the funnel: GET /admin/analytics/funnel and npm run ops -- stats', () => {
  const funnel = async (query: string) => {
    const res = await admin(api).get<unknown>(`/admin/analytics/funnel${query}`)
    expect(res.status, res.text).toBe(200)
    return funnelData.parse(res.body.data)
  }

  it('counts people once per step, by the day in the installation time zone, a repeat never as a first', async () => {
    const at = async (moment: number, run: () => Promise<unknown>) => {
      api.clock.set(moment)
      await run()
    }
    try {
      api.clock.set(lagos('2030-03-08'))
      const [p1, p2, p3] = [await person(), await person(), await person()]
      const visitor = (n: number) => `visitor-${String(n).padStart(12, '0')}`
      const view = (n: number, token?: string) => event({ name: 'page_view', path: '/', visitorId: visitor(n) }, token)

      // The day before: a visit, a registration, p2's first withdrawal.
      await at(lagos('2030-03-09'), () => view(4))
      await at(lagos('2030-03-09'), () => event({ name: 'register' }, p3.token))
      await at(lagos('2030-03-09'), () => event({ name: 'withdrawal_created' }, p2.token))
      // The day: three visitors (v1 twice, v3 signed in), two registrations, p1's first order and withdrawal.
      await at(lagos('2030-03-10', '00:05'), () => view(1))
      await at(lagos('2030-03-10', '09:00'), () => view(1))
      await at(lagos('2030-03-10', '10:00'), () => view(2))
      await at(lagos('2030-03-10', '11:00'), () => view(3, p1.token))
      await at(lagos('2030-03-10', '11:01'), () => event({ name: 'register' }, p1.token))
      await at(lagos('2030-03-10', '11:02'), () => event({ name: 'register' }, p2.token))
      await at(lagos('2030-03-10', '12:00'), () => event({ name: 'first_successful_order' }, p1.token))
      await at(lagos('2030-03-10', '13:00'), () => event({ name: 'withdrawal_created' }, p1.token))
      await at(lagos('2030-03-10', '14:00'), () => event({ name: 'withdrawal_created' }, p1.token))
      // p2's second withdrawal is not a first one; p3 registering again is not a registration.
      await at(lagos('2030-03-10', '15:00'), () => event({ name: 'withdrawal_created' }, p2.token))
      await at(lagos('2030-03-10', '16:00'), () => event({ name: 'register' }, p3.token))
      // 23:30 UTC on the 10th is 00:30 on the 11th in Lagos: the next day.
      await at(Date.parse('2030-03-10T23:30:00Z'), () => view(5))
      await at(lagos('2030-03-11'), () => event({ name: 'first_successful_order' }, p2.token))

      expect(await funnel('?from=2030-03-10&to=2030-03-10')).toEqual({
        from: '2030-03-10',
        to: '2030-03-10',
        timeZone: 'Africa/Lagos',
        visits: 3,
        registrations: 2,
        firstOrders: 1,
        firstWithdrawals: 1,
      })
      expect(await funnel('?from=2030-03-09&to=2030-03-11')).toMatchObject({
        visits: 5,
        registrations: 3,
        firstOrders: 2,
        firstWithdrawals: 2,
      })
      expect(await funnel('?from=2030-03-11&to=2030-03-11')).toMatchObject({ visits: 1, registrations: 0, firstOrders: 1 })

      // Without days: the 30 days up to today.
      api.clock.set(lagos('2030-03-12'))
      expect(await funnel('')).toMatchObject({ from: '2030-02-11', to: '2030-03-12', visits: 5, registrations: 3 })

      // The operators' command line prints the same numbers and the conversions.
      const out = await ops(['stats', '--from', '2030-03-10', '--to', '2030-03-10'])
      expect(out.stderr).toBe('')
      expect(out.stdout).toContain('Funnel 2030-03-10 to 2030-03-10 (Africa/Lagos)')
      expect(out.stdout).toMatch(/visits\s+3\n/)
      expect(out.stdout).toMatch(/registrations\s+2\s+66\.7% of visits/)
      expect(out.stdout).toMatch(/first order\s+1\s+50\.0% of registrations/)
      expect(out.stdout).toMatch(/first withdrawal\s+1\s+100\.0% of first orders/)
      expect(out.stdout).toContain('overall: 33.3% of visits reached a first withdrawal')
      const empty = await ops(['stats', '--from', '2031-01-01', '--to', '2031-01-01'])
      expect(empty.stdout).toMatch(/registrations\s+0\s+— of visits/)
    } finally {
      api.clock.set(Date.now())
    }
  })

  it('refuses days that are not days, a range backwards, and callers who are not operators', async () => {
    for (const query of ['?from=2030-02-30', '?to=2030-13-01', '?from=10-03-2030', '?from=2030-03-11&to=2030-03-10']) {
      const res = await admin(api).get(`/admin/analytics/funnel${query}`)
      expect(res.status, query).toBe(400)
      expect(res.body.msg).toMatch(/from|to/)
    }
    const me = await person()
    expect((await api.get('/admin/analytics/funnel', { token: me.token })).status).toBe(401)
    const bad = await ops(['stats', '--from', 'yesterday'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--from takes a day like 2025-01-31')
    const refused = await ops(['stats', '--from', '2030-03-11', '--to', '2030-03-10'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('from: must not be after to')
  })
})

const script = path.resolve(__dirname, '../../scripts/ops.mjs')
async function ops(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH, OPS_API_URL: api.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, OPERATOR: 'ada' } as unknown as NodeJS.ProcessEnv,
      timeout: 20_000,
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}
