import { createRequire } from 'node:module'
import { describe, expect, it, vi } from 'vitest'
import { staffDeskApi } from '#contract/ops/staff'
import { opsNav } from '~/ops/desks'
import * as layout from '~/ops/routes/ops'
import * as dashboard from '~/ops/routes/ops._index'
import * as payouts from '~/ops/routes/ops.payouts'
import * as login from '~/ops/routes/ops_.login'
import * as logout from '~/ops/routes/ops_.logout'
import * as setup from '~/ops/routes/ops_.setup.$token'
import { totpCode } from '../../api/lib/totp'
import { jarFor, staffJar, staffToastOf } from '../support/console'
import { useTestApi } from '../support/kit'
import { bearer, codeAt, seedStaff, STAFF_PASSWORD, testStaffToken } from '../support/staff'
import { apiCallsSince, call, CookieJar, jsonOf, load, loadDocument, makeRequest, signedInJar, submit } from '../support/web'

/** The console's own sign-in (/ops/login, /ops/setup/<token>, /ops/logout) against the real api. */
const api = useTestApi()

describe('/ops/login: e-mail and password, then the authenticator code', () => {
  it('signs a staff member in through both steps; the challenge never leaves the cookie', async () => {
    const staff = await seedStaff(api, { role: 'reviewer' })
    const jar = new CookieJar()
    expect(await jsonOf(await load(login.loader, '/ops/login', jar))).toMatchObject({ step: 'password' })

    const step1 = await submit(
      login.action,
      '/ops/login',
      { intent: 'password', email: staff.email, password: STAFF_PASSWORD, redirectTo: '/ops/review' },
      jar,
    )
    expect(step1).toHaveRedirect('/ops/login?redirectTo=%2Fops%2Freview')
    const page = await load(login.loader, '/ops/login?redirectTo=%2Fops%2Freview', jar)
    const body = await page.text()
    expect(JSON.parse(body)).toMatchObject({ step: 'code', email: staff.email, redirectTo: '/ops/review' })
    expect(body).not.toMatch(/challenge/i)

    const wrong = await submit(login.action, '/ops/login', { intent: 'code', code: '000000' }, jar)
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(await jsonOf(wrong))).toContain('The authenticator code is wrong')

    const right = await submit(
      login.action,
      '/ops/login',
      { intent: 'code', code: codeAt(api, staff.seed), redirectTo: '/ops/review' },
      jar,
    )
    expect(right).toHaveRedirect('/ops/review')
    expect(await staffToastOf(right)).toMatchObject({ type: 'success', message: 'Signed in' })
    const frame = await jsonOf(await load(layout.loader, '/ops', jar))
    expect(frame.staff).toEqual({ email: staff.email, role: 'reviewer' })
  })

  it('a wrong password stays on the first step with the api sentence; a bad e-mail is named', async () => {
    const staff = await seedStaff(api)
    const bad = await submit(login.action, '/ops/login', { intent: 'password', email: staff.email, password: 'not the password at all' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await jsonOf(bad))).toContain('Incorrect e-mail or password')
    const malformed = await submit(login.action, '/ops/login', { intent: 'password', email: 'nope', password: 'x' })
    expect(malformed.status).toBe(400)
  })

  it('a code without a challenge, or with a hostile redirect, goes back to the first step and never off the console', async () => {
    const jar = new CookieJar()
    const res = await submit(login.action, '/ops/login', { intent: 'code', code: '123456', redirectTo: 'https://evil.example/' }, jar)
    expect(res).toHaveRedirect('/ops/login')
    const to = await submit(login.action, '/ops/login', { intent: 'restart', redirectTo: '//evil.example' }, jar)
    expect(to).toHaveRedirect('/ops/login')
    // A customer's page is not a console target either.
    const staff = await seedStaff(api)
    const signedIn = await jarFor(staff)
    expect(await load(login.loader, '/ops/login?redirectTo=%2Fwallet', signedIn)).toHaveRedirect('/ops')
  })

  it('a customer session is not a staff session: /ops sends a customer to the staff sign-in', async () => {
    const customer = await signedInJar('customer-token')
    expect(await load(dashboard.loader, '/ops', customer)).toHaveRedirect('/ops/login')
    expect(await jsonOf(await load(login.loader, '/ops/login', customer))).toMatchObject({ step: 'password' })
  })
})

describe('the console frame', () => {
  it('shows each role only its desks', () => {
    const paths = (role: 'reviewer' | 'payouts' | 'admin') => opsNav(role).map((d) => d.path)
    expect(paths('reviewer')).not.toContain('/ops/staff')
    expect(paths('admin')).toEqual(expect.arrayContaining(paths('reviewer')))
  })

  it('follows the api: a session the api ended sends the staff member to sign in again', async () => {
    const { jar, staff } = await staffJar(api, 'payouts')
    expect(await jsonOf(await load(layout.loader, '/ops', jar))).toMatchObject({ staff: { role: 'payouts' } })
    await api.post('/staff/logout', {}, { headers: bearer(staff.token) })
    const before = api.logs.length
    const res = await load(payouts.loader, '/ops/payouts', jar)
    expect(res).toHaveRedirect('/ops/login?redirectTo=%2Fops%2Fpayouts')
    expect(await staffToastOf(res)).toMatchObject({ message: 'Your console session ended. Please sign in again.' })
    // The desk asks its three pages at once and the first refusal answers; the other two are still
    // on their way to the api, and must not land in the next test's count.
    await vi.waitFor(() => expect(apiCallsSince(api, before).filter((p) => p === '/admin/withdraw/page')).toHaveLength(3))
  })

  it('a console page asks the api once: the frame draws from the cookie, the desk makes its own call', async () => {
    const { jar } = await staffJar(api, 'admin')
    const before = api.logs.length
    const [frame, desk] = await loadDocument([layout.loader, dashboard.loader], '/ops', jar)
    expect(frame.status).toBe(200)
    expect(desk.status).toBe(200)
    expect(apiCallsSince(api, before)).toEqual(['/admin/dashboard'])
  })

  it('a console page checks its cookie once: the frame, the guard and the staff call read one verified header', async () => {
    // The signature check Remix's cookies call (@remix-run/node's own copy of cookie-signature).
    const signature = createRequire(createRequire(import.meta.url).resolve('@remix-run/node'))('cookie-signature') as {
      unsign: (value: string, secret: string) => string | false
    }
    const unsign = vi.spyOn(signature, 'unsign')
    try {
      const { jar } = await staffJar(api, 'admin')
      for (let page = 0; page < 2; page++) {
        const [frame, desk] = await loadDocument([layout.loader, dashboard.loader], '/ops', jar)
        expect([frame.status, desk.status]).toEqual([200, 200])
      }
      expect(unsign).toHaveBeenCalledTimes(1)
      // A tampered cookie is never kept: each page checks it again and sends it to the sign-in.
      const tampered = jar.header().replace(/\.([A-Za-z0-9])/, (_, c: string) => `.${c === 'e' ? 'f' : 'e'}`)
      for (let page = 0; page < 2; page++) {
        const res = await call(layout.loader, makeRequest('/ops', { headers: { cookie: tampered } }))
        expect(res.status).toBe(302)
      }
      expect(unsign.mock.calls.length).toBeGreaterThanOrEqual(3)
    } finally {
      unsign.mockRestore()
    }
  })

  it("a role changed by an admin shows at the next page: the desk's answer brings it, the page is asked again", async () => {
    const { jar, staff } = await staffJar(api, 'reviewer')
    const admin = await testStaffToken(api)
    await api.post('/admin/staff/role', { email: staff.email, role: 'payouts' }, { headers: bearer(admin) })
    const again = await load(dashboard.loader, '/ops?x=1', jar)
    expect(again).toHaveRedirect('/ops?x=1')
    expect((await jsonOf(await load(layout.loader, '/ops', jar))).staff.role).toBe('payouts')
    expect(await jsonOf(await load(dashboard.loader, '/ops', jar))).toMatchObject({ desks: expect.any(Array) })
  })

  it("a desk the cookie's role may not open asks the api first: a promotion opens it, a demotion closes it", async () => {
    const { jar, staff } = await staffJar(api, 'reviewer')
    const admin = await testStaffToken(api)
    expect((await load(payouts.loader, '/ops/payouts', jar)).status).toBe(403)
    await api.post('/admin/staff/role', { email: staff.email, role: 'admin' }, { headers: bearer(admin) })
    expect(await load(payouts.loader, '/ops/payouts', jar)).toHaveRedirect('/ops/payouts')
    expect((await load(payouts.loader, '/ops/payouts', jar)).status).toBe(200)

    await api.post('/admin/staff/role', { email: staff.email, role: 'reviewer' }, { headers: bearer(admin) })
    expect(await load(payouts.loader, '/ops/payouts', jar)).toHaveRedirect('/ops/payouts')
    expect((await jsonOf(await load(layout.loader, '/ops', jar))).staff.role).toBe('reviewer')
    expect((await load(payouts.loader, '/ops/payouts', jar)).status).toBe(403)
  })
})

describe('/ops/logout', () => {
  it('ends the api session and forgets it here', async () => {
    const { jar, staff } = await staffJar(api, 'admin')
    const res = await submit(logout.action, '/ops/logout', {}, jar)
    expect(res).toHaveRedirect('/ops/login')
    expect((await api.get('/staff/me', { headers: bearer(staff.token) })).status).toBe(401)
    expect(await load(dashboard.loader, '/ops', jar)).toHaveRedirect('/ops/login')
  })
})

describe('/ops/setup/<token>', () => {
  it('shows a QR code and the key once, uncached; a code from the app finishes set-up', async () => {
    const admin = await testStaffToken(api)
    const email = `new.${Date.now()}@staff.test`
    const invited = await api.post('/admin/staff/invite', { email, role: 'reviewer' }, { headers: bearer(admin) })
    const { setupToken } = staffDeskApi.invite.data.parse(invited.body.data)
    const path = `/ops/setup/${setupToken}`
    const page = await load(setup.loader, path, undefined, { token: setupToken })
    expect(page.status).toBe(200)
    const data = await jsonOf(page)
    expect(data).toMatchObject({ ok: true, email, role: 'reviewer' })
    expect(data.qr).toMatch(/^<svg/)
    expect(setup.headers({} as never)).toEqual({ 'Cache-Control': 'no-store' })

    const short = await submit(setup.action, path, { password: 'short', confirmPassword: 'short', code: '123456' }, undefined, {
      token: setupToken,
    })
    expect(short.status).toBe(400)
    const password = 'a long staff password 42'
    const done = await submit(
      setup.action,
      path,
      { password, confirmPassword: password, code: totpCode(data.secret, api.clock.now()) },
      undefined,
      {
        token: setupToken,
      },
    )
    expect(done).toHaveRedirect('/ops/login')
    expect(await staffToastOf(done)).toMatchObject({ type: 'success' })
    const signIn = await api.post('/staff/login', { email, password })
    expect(signIn.body.code).toBe(200)
  })

  it('a used, unknown or malformed link says so (410), never a 500', async () => {
    for (const token of ['x'.repeat(43), 'short', '../../etc']) {
      const res = await load(setup.loader, `/ops/setup/${encodeURIComponent(token)}`, undefined, { token })
      expect(res.status).toBe(410)
      expect(await jsonOf(res)).toMatchObject({ ok: false })
    }
  })
})
