import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { staffDeskApi } from '#contract/ops/staff'
import { opsMessages } from '~/ops/messages'
import * as dashboard from '~/ops/routes/ops._index'
import * as payouts from '~/ops/routes/ops.payouts'
import * as reconcile from '~/ops/routes/ops.payouts_.reconcile'
import * as reviewOrder from '~/ops/routes/ops.review.$orderId'
import * as review from '~/ops/routes/ops.review._index'
import * as staffDesk from '~/ops/routes/ops.staff'
import * as login from '~/ops/routes/ops_.login'
import * as setup from '~/ops/routes/ops_.setup.$token'
import { logger as appLogger } from '~/utils/logger.server'
import { totpCode } from '../../api/lib/totp'
import { logger as webLogger, requestLog } from '../../server/logging'
import { staffJar } from '../support/console'
import { useTestApi } from '../support/kit'
import { bearer, testStaffToken } from '../support/staff'
import { call, CookieJar, jsonOf, load, makeRequest, submit } from '../support/web'

/**
 * The console's sign-in and set-up against the real api with a small per-address limit: the set-up
 * key survives a refused attempt and a preview, a lock is worded as a wait, a wrong desk is "Not
 * your desk", and no token, code or password reaches a log line.
 */
const api = useTestApi({ config: { authRateLimit: 12 } })
afterEach(() => vi.restoreAllMocks())

const PASSWORD = 'a long staff password 42'

async function invite(email: string) {
  const admin = await testStaffToken(api)
  const res = await api.post('/admin/staff/invite', { email, role: 'reviewer' }, { headers: bearer(admin) })
  return staffDeskApi.invite.data.parse(res.body.data).setupToken
}

describe('/ops/setup/<token> without JavaScript', () => {
  it('keeps one authenticator key across a preview (GET, HEAD) and a refused attempt; the 12-character rule is said once', async () => {
    const token = await invite(`keep.${Date.now()}@staff.test`)
    const path = `/ops/setup/${token}`
    const first = await jsonOf(await load(setup.loader, path, undefined, { token }))
    // A link preview or a prefetch.
    await call(setup.loader, makeRequest(path, { method: 'HEAD' }), { token })
    expect((await jsonOf(await load(setup.loader, path, undefined, { token }))).secret).toBe(first.secret)

    const short = await submit(setup.action, path, { password: 'short', confirmPassword: 'short', code: '123456' }, undefined, { token })
    expect(short.status).toBe(400)
    const reply = await jsonOf(short)
    expect(reply.result.error.password).toEqual(['Password must be at least 12 characters'])
    // Without JavaScript the page is loaded again after the action: the same key, so the phone's code still fits.
    const again = await jsonOf(await load(setup.loader, path, undefined, { token }))
    expect(again.secret).toBe(first.secret)
    const done = await submit(
      setup.action,
      path,
      { password: PASSWORD, confirmPassword: PASSWORD, code: totpCode(first.secret, api.clock.now()) },
      undefined,
      { token },
    )
    expect(done).toHaveRedirect('/ops/login')
  })
})

describe('the console’s refusals', () => {
  it('a desk of another role, or a role the api no longer grants, is "Not your desk" (403), never the customers’ error page', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const refused = await load(payouts.loader, '/ops/payouts', jar)
    expect(refused.status).toBe(403)
    expect(await jsonOf(refused)).toEqual({ message: opsMessages.notYourDesk })
    // The cookie says payouts, the api says reviewer now (an admin changed it): the cookie takes the
    // api's role and the page is asked again, which is then the desk's 403.
    const { jar: stale, staff } = await staffJar(api, 'payouts')
    await api.post('/admin/staff/role', { email: staff.email, role: 'reviewer' }, { headers: bearer(await testStaffToken(api)) })
    expect(await load(payouts.loader, '/ops/payouts', stale)).toHaveRedirect('/ops/payouts')
    const demoted = await load(payouts.loader, '/ops/payouts', stale)
    expect(demoted.status).toBe(403)
    expect(await jsonOf(demoted)).toEqual({ message: opsMessages.notYourDesk })
    for (const desk of [dashboard, payouts, reconcile, review, reviewOrder, staffDesk])
      expect(String(desk.ErrorBoundary)).toContain('DeskErrorBoundary')
  })
})

describe('no secret of the console reaches a log line', () => {
  it('a whole journey (invite, set-up, sign-in, a desk): the web’s and the api’s logs hold no token, key, code or password', async () => {
    const lines: unknown[] = []
    for (const logger of [appLogger, webLogger])
      for (const level of ['debug', 'info', 'warn', 'error'] as const)
        vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void lines.push(args)) as never)
    const visit = (method: string, path: string) => {
      // The web's request log, as server/app.ts runs it for each request of the journey.
      const res = { statusCode: 200, locals: { requestId: 'rid' }, on: (_: string, fn: () => void) => fn() }
      requestLog({ method, path } as ExpressRequest, res as unknown as ExpressResponse, (() => {}) as NextFunction)
    }
    const apiFrom = api.logs.length

    const { jar: adminJar } = await staffJar(api, 'admin')
    const email = `journey.${Date.now()}@staff.test`
    visit('POST', '/ops/staff')
    const invited = await jsonOf(await submit(staffDesk.action, '/ops/staff', { intent: 'invite', email, role: 'reviewer' }, adminJar))
    const token = String(invited.setup.link).split('/ops/setup/')[1]
    expect(token.length).toBeGreaterThan(20)
    const path = `/ops/setup/${token}`
    visit('GET', path)
    const page = await jsonOf(await load(setup.loader, path, undefined, { token }))
    visit('POST', path)
    const setupCode = totpCode(page.secret, api.clock.now())
    expect(
      await submit(setup.action, path, { password: PASSWORD, confirmPassword: PASSWORD, code: setupCode }, undefined, { token }),
    ).toHaveRedirect('/ops/login')

    const jar = new CookieJar()
    visit('POST', '/ops/login')
    await submit(login.action, '/ops/login', { intent: 'password', email, password: PASSWORD }, jar)
    api.clock.advance(30_000)
    const signInCode = totpCode(page.secret, api.clock.now())
    visit('POST', '/ops/login')
    expect(await submit(login.action, '/ops/login', { intent: 'code', code: signInCode }, jar)).toHaveRedirect('/ops')
    visit('GET', '/ops/review')
    expect((await load(review.loader, '/ops/review', jar)).status).toBe(200)

    const written = JSON.stringify(lines) + api.logs.slice(apiFrom).join('\n')
    expect(written).toContain('/ops/setup/:token')
    for (const secret of [token, page.secret, setupCode, signInCode, PASSWORD]) expect(written).not.toContain(secret)
  })
})

describe('a lock on sign-in', () => {
  it('is worded as a wait on the sign-in and the set-up page ("Too many tries from here"), never an error page', async () => {
    const jar = new CookieJar()
    let last: Response | undefined
    for (let i = 0; i < 14; i++)
      last = await submit(login.action, '/ops/login', { intent: 'password', email: `x${i}@staff.test`, password: 'not it at all' }, jar)
    expect(last!.status).toBe(400)
    const reply = await jsonOf(last!)
    expect(reply.result.error['']).toEqual(['Too many tries from here; try again in 15 minutes'])
    expect(reply.toast).toMatchObject({ type: 'error', message: 'Too many tries from here; try again in 15 minutes' })
    const token = 'y'.repeat(43)
    const page = await load(setup.loader, `/ops/setup/${token}`, undefined, { token })
    expect(page.status).toBe(429)
    expect(await jsonOf(page)).toEqual({ ok: false, message: 'Too many tries from here; try again in 15 minutes' })
    api.clock.advance(15 * 60_000)
  })
})
