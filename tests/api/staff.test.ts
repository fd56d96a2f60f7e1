import { describe, expect, it } from 'vitest'
import type { StaffRole } from '#contract/endpoint'
import { Code } from '#contract/envelope'
import { allEndpoints } from '#contract/index'
import { staffDeskApi, STAFF_SESSION_IDLE_MS, STAFF_SESSION_MAX_MS, staffApi } from '#contract/ops/staff'
import { Refusals } from '#contract/refusals'
import { STAFF_SEEN_WRITE_MS } from '../../api/models/ops/staff'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { bearer, codeAt, seedStaff, STAFF_PASSWORD } from '../support/staff'
import { TEST_ADMIN_TOKEN } from '../support/wallet'

/** Staff identities: set-up link, sign-in with password + authenticator code, sessions, roles, lock. */
const api = useTestApi({ web: false })

const PASSWORD = 'a long staff passphrase 42'
const STEP = 30_000
const adminToken = bearer(TEST_ADMIN_TOKEN)

/** The next 30-second step: a code of the step before would be a replay. */
const nextStep = () => api.clock.advance(STEP)

/** An invited staff member taken through the set-up link, as the console page will. */
async function enrol(role: StaffRole = 'reviewer', email = newEmail('staff')) {
  const invited = await api.post('/admin/staff/invite', { email, role }, { headers: adminToken })
  expect(invited.body.code, invited.text).toBe(Code.OK)
  const { setupToken } = staffDeskApi.invite.data.parse(invited.body.data)
  const start = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: setupToken })).body.data)
  nextStep()
  const done = await api.post('/staff/setup/complete', { token: setupToken, password: PASSWORD, code: codeAt(api, start.secret) })
  expect(done.body, done.text).toEqual({ code: Code.OK, msg: 'success', data: null })
  return { email, role, seed: start.secret, setupToken }
}

async function signIn(email: string, seed: string, password = PASSWORD) {
  const login = await api.post('/staff/login', { email, password })
  if (login.body.code !== Code.OK) return login
  nextStep()
  const { challenge } = staffApi.login.data.parse(login.body.data)
  return api.post('/staff/verify', { challenge, code: codeAt(api, seed) })
}

async function sessionOf(email: string, seed: string) {
  const res = await signIn(email, seed)
  expect(res.body.code, res.text).toBe(Code.OK)
  return staffApi.verify.data.parse(res.body.data)
}

describe('set-up link', () => {
  it('enrols a staff member once: one seed for every opening, a wrong code refused, the link then dies', async () => {
    const email = newEmail('setup')
    const invited = staffDeskApi.invite.data.parse(
      (await api.post('/admin/staff/invite', { email, role: 'payouts' }, { headers: adminToken })).body.data,
    )
    expect(invited.staff).toMatchObject({ email, role: 'payouts', status: 'invited', locked: false, createdBy: 'admin-token' })
    const first = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: invited.setupToken })).body.data)
    expect(first.otpauthUri).toMatch(/^otpauth:\/\/totp\/Cardlane:.+\?.*secret=[A-Z2-7]{32}/)
    expect(first.otpauthUri).toContain(first.secret)
    const second = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: invited.setupToken })).body.data)
    // Opening again (a preview, a reload) keeps the key already scanned.
    expect(second.secret).toBe(first.secret)
    const stale = await api.post('/staff/setup/complete', {
      token: invited.setupToken,
      password: PASSWORD,
      code: String((Number(codeAt(api, first.secret)) + 1) % 1_000_000).padStart(6, '0'),
    })
    expect(stale.body).toMatchObject(Refusals.STAFF_BAD_CODE)
    const weak = await api.post('/staff/setup/complete', { token: invited.setupToken, password: 'short', code: codeAt(api, second.secret) })
    expect(weak.status).toBe(400)
    const done = await api.post('/staff/setup/complete', {
      token: invited.setupToken,
      password: PASSWORD,
      code: codeAt(api, second.secret),
    })
    expect(done.body.code).toBe(Code.OK)
    // Used: neither opening nor completing works again, and no seed is ever answered again.
    expect((await api.post('/staff/setup/start', { token: invited.setupToken })).body).toMatchObject(Refusals.STAFF_SETUP_INVALID)
    expect(
      (await api.post('/staff/setup/complete', { token: invited.setupToken, password: PASSWORD, code: codeAt(api, second.secret) })).body,
    ).toMatchObject(Refusals.STAFF_SETUP_INVALID)
    // The seed is sealed at rest, the password hashed.
    const row = await api.db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    expect(row.status).toBe('active')
    expect(row.totp_cipher).toMatch(/^v1\./)
    expect(row.totp_cipher).not.toContain(second.secret)
    expect(row.password_hash).toMatch(/^\$argon2id\$/)
    expect(row.totp_pending_cipher).toBeNull()
  })

  it('expires after 24 hours, and refuses an unknown token', async () => {
    const invited = staffDeskApi.invite.data.parse(
      (await api.post('/admin/staff/invite', { email: newEmail('late'), role: 'reviewer' }, { headers: adminToken })).body.data,
    )
    api.clock.advance(24 * 3_600_000 + 1)
    expect((await api.post('/staff/setup/start', { token: invited.setupToken })).body).toMatchObject(Refusals.STAFF_SETUP_INVALID)
    expect((await api.post('/staff/setup/start', { token: 'x'.repeat(43) })).body).toMatchObject(Refusals.STAFF_SETUP_INVALID)
  })

  it('refuses a second staff member with the same e-mail', async () => {
    const email = newEmail('twice')
    await api.post('/admin/staff/invite', { email, role: 'reviewer' }, { headers: adminToken })
    const again = await api.post('/admin/staff/invite', { email: email.toUpperCase(), role: 'admin' }, { headers: adminToken })
    expect(again.body).toMatchObject(Refusals.STAFF_EXISTS)
  })
})

describe('sign-in: password, then the authenticator code', () => {
  it('answers a staff session for the right pair and code, and nothing for a wrong one', async () => {
    const s = await enrol('reviewer')
    expect((await api.post('/staff/login', { email: s.email, password: 'wrong password!' })).body).toMatchObject(
      Refusals.STAFF_BAD_CREDENTIALS,
    )
    expect((await api.post('/staff/login', { email: newEmail('nobody'), password: PASSWORD })).body).toMatchObject(
      Refusals.STAFF_BAD_CREDENTIALS,
    )
    const session = await sessionOf(s.email, s.seed)
    expect(session.staff).toMatchObject({ email: s.email, role: 'reviewer', status: 'active', locked: false })
    expect(session.expiresAt).toBe(api.clock.now() + STAFF_SESSION_MAX_MS)
    const me = await api.get('/staff/me', { headers: bearer(session.token) })
    expect(staffApi.me.data.parse(me.body.data)).toMatchObject({ email: s.email, role: 'reviewer' })
    // The audit log names the staff member.
    const signin = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'staff.signin')
      .where('actor', '=', `staff:${s.email}`)
      .execute()
    expect(signin).toHaveLength(1)
  })

  it('refuses a code used before in its step (a replay), and a challenge used twice', async () => {
    const s = await enrol('payouts')
    nextStep()
    const code = codeAt(api, s.seed)
    const one = staffApi.login.data.parse((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body.data)
    const two = staffApi.login.data.parse((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body.data)
    // Both at once: exactly one session.
    const answers = await Promise.all([
      api.post('/staff/verify', { challenge: one.challenge, code }),
      api.post('/staff/verify', { challenge: two.challenge, code }),
    ])
    expect(answers.map((a) => a.body.code).sort()).toEqual([Code.OK, Refusals.STAFF_CODE_USED.code].sort())
    nextStep()
    const used = answers.find((a) => a.body.code === Code.OK)!
    const again = await api.post('/staff/verify', {
      challenge: used === answers[0] ? one.challenge : two.challenge,
      code: codeAt(api, s.seed),
    })
    expect(again.body).toMatchObject(Refusals.STAFF_CHALLENGE_EXPIRED)
  })

  it('accepts the code of the step before (clock drift) but not older, and a challenge lives five minutes', async () => {
    const s = await enrol('reviewer')
    nextStep()
    nextStep()
    const login = staffApi.login.data.parse((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body.data)
    const old = await api.post('/staff/verify', { challenge: login.challenge, code: codeAt(api, s.seed, -3 * STEP) })
    expect(old.body).toMatchObject(Refusals.STAFF_BAD_CODE)
    const drift = await api.post('/staff/verify', { challenge: login.challenge, code: codeAt(api, s.seed, -STEP) })
    // The step before is not the set-up's own (used) step: it passes.
    expect(drift.body.code, drift.text).toBe(Code.OK)
    nextStep()
    const late = staffApi.login.data.parse((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body.data)
    api.clock.advance(5 * 60_000 + 1)
    expect((await api.post('/staff/verify', { challenge: late.challenge, code: codeAt(api, s.seed) })).body).toMatchObject(
      Refusals.STAFF_CHALLENGE_EXPIRED,
    )
  })

  it('ten wrong codes lock the staff member, even in parallel, until an admin resets them', async () => {
    const s = await enrol('reviewer')
    const live = await sessionOf(s.email, s.seed)
    nextStep()
    const { challenge } = staffApi.login.data.parse((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body.data)
    const right = codeAt(api, s.seed)
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0')
    const guesses = await Promise.all(Array.from({ length: 15 }, () => api.post('/staff/verify', { challenge, code: wrong })))
    const codes = guesses.map((g) => g.body.code)
    expect(codes.filter((c) => c === Refusals.STAFF_BAD_CODE.code)).toHaveLength(9)
    expect(
      codes.filter((c) => c === Refusals.STAFF_LOCKED.code).length +
        codes.filter((c) => c === Refusals.STAFF_CHALLENGE_EXPIRED.code).length,
    ).toBe(6)
    const row = await api.db.selectFrom('staff').selectAll().where('email', '=', s.email).executeTakeFirstOrThrow()
    expect(row.totp_failures).toBe(10)
    expect(row.locked_at).not.toBeNull()
    // Locked: the right code does not help, the password step says so, the open session ended.
    expect((await api.post('/staff/verify', { challenge, code: right })).body.code).not.toBe(Code.OK)
    expect((await api.post('/staff/login', { email: s.email, password: PASSWORD })).body).toMatchObject(Refusals.STAFF_LOCKED)
    expect((await api.get('/staff/me', { headers: bearer(live.token) })).status).toBe(401)

    const reset = await api.post('/admin/staff/reset', { email: s.email }, { headers: bearer((await seedStaff(api)).token) })
    const link = staffDeskApi.reset.data.parse(reset.body.data)
    expect(link.staff).toMatchObject({ status: 'invited', locked: false })
    const start = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: link.setupToken })).body.data)
    nextStep()
    expect(
      (await api.post('/staff/setup/complete', { token: link.setupToken, password: PASSWORD, code: codeAt(api, start.secret) })).body.code,
    ).toBe(Code.OK)
    await sessionOf(s.email, start.secret)
    const actions = await api.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('target_id', '=', row.id)
      .orderBy('created_at')
      .execute()
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['staff.locked', 'staff.reset']))
  })
})

describe('staff sessions', () => {
  it('end after 30 idle minutes; activity keeps them alive up to 12 hours; logout ends them', async () => {
    const s = await seedStaff(api, { role: 'reviewer' })
    api.clock.advance(STAFF_SESSION_IDLE_MS - 1000)
    expect((await api.get('/staff/me', { headers: bearer(s.token) })).status).toBe(200)
    api.clock.advance(STAFF_SESSION_IDLE_MS + 1)
    expect((await api.get('/staff/me', { headers: bearer(s.token) })).status).toBe(401)

    const busy = await seedStaff(api, { role: 'reviewer' })
    for (let t = 0; t < STAFF_SESSION_MAX_MS; t += 20 * 60_000) {
      expect((await api.get('/staff/me', { headers: bearer(busy.token) })).status).toBe(200)
      api.clock.advance(20 * 60_000)
    }
    expect((await api.get('/staff/me', { headers: bearer(busy.token) })).status).toBe(401)

    const out = await seedStaff(api, { role: 'payouts' })
    expect((await api.post('/staff/logout', {}, { headers: bearer(out.token) })).body.code).toBe(Code.OK)
    expect((await api.get('/staff/me', { headers: bearer(out.token) })).status).toBe(401)
  })

  it("a staff call writes the session's last use at most once a minute; the idle end stays within it", async () => {
    const s = await seedStaff(api, { role: 'reviewer' })
    const sessionWrites = async () => {
      const from = api.queryCount()
      expect((await api.get('/staff/me', { headers: bearer(s.token) })).status).toBe(200)
      return api.queries.slice(from).filter((q) => /^update "staff_sessions"/i.test(q)).length
    }
    // Made just now: calls within the minute read the session and write nothing.
    expect(await sessionWrites()).toBe(0)
    api.clock.advance(STAFF_SEEN_WRITE_MS - 1000)
    expect(await sessionWrites()).toBe(0)
    // A minute after the last write the call restarts the idle clock, then again not within the minute.
    api.clock.advance(1000)
    expect(await sessionWrites()).toBe(1)
    expect(await sessionWrites()).toBe(0)
    // Idle from that write: alive just before the idle end, dead after it.
    api.clock.advance(STAFF_SESSION_IDLE_MS - 1)
    expect(await sessionWrites()).toBe(1)
    api.clock.advance(STAFF_SESSION_IDLE_MS)
    expect((await api.get('/staff/me', { headers: bearer(s.token) })).status).toBe(401)
  })

  it('a staff token is never a customer token, nor the reverse', async () => {
    const s = await seedStaff(api, { role: 'admin' })
    const { token: customer } = await seedUser(api, { email: newEmail('customer') })
    // Staff token where a customer's goes.
    expect((await api.get('/v1/user/index', { token: s.token })).status).toBe(401)
    expect((await api.get('/v1/wallet/info', { token: s.token })).status).toBe(401)
    // Customer token as a staff bearer, or in its own header on staff calls.
    expect((await api.get('/staff/me', { headers: bearer(customer) })).status).toBe(401)
    expect((await api.get('/staff/me', { token: customer })).status).toBe(401)
    expect((await api.get('/admin/staff/list', { headers: bearer(customer) })).status).toBe(401)
    expect((await api.get('/admin/staff/list', { token: customer })).status).toBe(401)
  })

  it('a disabled staff member is out at once', async () => {
    const s = await seedStaff(api, { role: 'reviewer' })
    const res = await api.post('/admin/staff/disable', { email: s.email }, { headers: bearer((await seedStaff(api)).token) })
    expect(staffDeskApi.disable.data.parse(res.body.data)).toMatchObject({ status: 'disabled' })
    expect((await api.get('/staff/me', { headers: bearer(s.token) })).status).toBe(401)
    expect((await api.post('/staff/login', { email: s.email, password: STAFF_PASSWORD })).body).toMatchObject(
      Refusals.STAFF_BAD_CREDENTIALS,
    )
  })
})

/**
 * Who may call each /admin record. Written out here, not read from the contract, so a record
 * given the wrong role (or a new one given none) fails this test.
 */
const WHO: Record<string, ('reviewer' | 'payouts' | 'admin' | 'admin-token')[]> = {
  'POST /admin/wallet/adjust': ['admin'],
  'GET /admin/wallet/adjust/pending': ['admin'],
  'POST /admin/wallet/adjust/approve': ['admin'],
  'POST /admin/wallet/adjust/decline': ['admin'],
  'GET /admin/withdraw/page': ['payouts', 'admin'],
  'POST /admin/withdraw/update': ['payouts', 'admin'],
  'POST /admin/withdraw/approve': ['payouts', 'admin'],
  'GET /admin/payouts/reconcile': ['payouts', 'admin'],
  'POST /admin/payouts/reconcileRecent': ['payouts', 'admin'],
  'GET /admin/payouts/attention': ['payouts', 'admin'],
  'POST /admin/withdraw/finalizeOtp': ['payouts', 'admin'],
  'POST /admin/withdraw/resolveConflict': ['payouts', 'admin'],
  'POST /admin/withdraw/reveal': ['payouts', 'admin'],
  'GET /admin/people': ['admin'],
  'GET /admin/signals/sharedBankAccounts': ['admin'],
  'GET /admin/user': ['admin'],
  'GET /admin/user/ledger': ['admin'],
  'GET /admin/dashboard': ['reviewer', 'payouts', 'admin'],
  'GET /admin/books': ['admin', 'admin-token'],
  'GET /admin/analytics/funnel': ['admin', 'admin-token'],
  'GET /admin/order/page': ['reviewer', 'admin'],
  'GET /admin/order/detail': ['reviewer', 'admin'],
  'POST /admin/order/claim': ['reviewer', 'admin'],
  'POST /admin/order/complete': ['reviewer', 'admin'],
  'POST /admin/order/propose': ['reviewer', 'admin'],
  'POST /admin/order/reject': ['reviewer', 'admin'],
  'POST /admin/order/reveal': ['reviewer', 'admin'],
  'GET /admin/order/signals': ['reviewer', 'admin'],
  'POST /admin/file/upload': ['reviewer', 'admin'],
  'GET /admin/file/get': ['reviewer', 'admin'],
  'POST /admin/giftcard/rate': ['admin'],
  'POST /admin/giftcard/eta': ['admin'],
  'GET /admin/giftcard/rate/history': ['admin'],
  'GET /admin/giftcard/rate/pending': ['admin'],
  'POST /admin/giftcard/rate/approve': ['admin'],
  'POST /admin/giftcard/rate/decline': ['admin'],
  'POST /admin/staff/confirm': ['admin'],
  'POST /admin/staff/invite': ['admin', 'admin-token'],
  'GET /admin/staff/list': ['admin', 'admin-token'],
  'POST /admin/staff/role': ['admin'],
  'POST /admin/staff/disable': ['admin', 'admin-token'],
  'POST /admin/staff/reset': ['admin', 'admin-token'],
  'GET /admin/audit/page': ['admin'],
  'GET /admin/support/conversations': ['reviewer', 'payouts', 'admin'],
  'GET /admin/support/conversation': ['reviewer', 'payouts', 'admin'],
  'POST /admin/support/reply': ['reviewer', 'payouts', 'admin'],
  'POST /admin/support/close': ['reviewer', 'payouts', 'admin'],
}

describe('roles on every /admin call', () => {
  it('each record lets in exactly the roles it should: 401 without a staff session, 403 with the wrong role or ADMIN_TOKEN', async () => {
    const records = allEndpoints.filter((e) => e.path.startsWith('/admin/'))
    expect(records.map((e) => `${e.method} ${e.path}`).sort()).toEqual(Object.keys(WHO).sort())
    const callers = {
      reviewer: bearer((await seedStaff(api, { role: 'reviewer' })).token),
      payouts: bearer((await seedStaff(api, { role: 'payouts' })).token),
      admin: bearer((await seedStaff(api, { role: 'admin' })).token),
      'admin-token': adminToken,
    }
    const { token: customer } = await seedUser(api, { email: newEmail('roles') })
    for (const e of records) {
      const key = `${e.method} ${e.path}`
      // An input no record accepts, so no allowed call changes anything: allowed means "got past auth".
      const call = (headers: Record<string, string>, token?: string) =>
        e.method === 'GET'
          ? api.get(`${e.path}?id=&email=&pageSize=0`, { headers, token })
          : api.post(e.path, { nope: 1 }, { headers, token })
      expect((await call({})).status, `${key} without a token`).toBe(401)
      expect((await call({}, customer)).status, `${key} with a customer token`).toBe(401)
      for (const [who, headers] of Object.entries(callers)) {
        const res = await call(headers)
        const allowed = WHO[key].includes(who as never)
        if (allowed) expect([401, 403, 500], `${key} as ${who}: ${res.text}`).not.toContain(res.status)
        else expect(res.status, `${key} as ${who}`).toBe(403)
      }
    }
  })

  it('ADMIN_TOKEN is refused for what a person should do, with a sentence that says what to do, and audited where accepted', async () => {
    const res = await api.get('/admin/order/page', { headers: adminToken })
    expect(res.status).toBe(403)
    expect(res.body.msg).toContain('npm run ops -- login')
    const books = await api.get('/admin/books', { headers: adminToken })
    expect(books.body.code).toBe(Code.OK)
    const used = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', 'admin-token')
      .where('target_id', '=', 'GET /admin/books')
      .execute()
    expect(used.length).toBeGreaterThan(0)
  })
})

describe('admins manage staff', () => {
  it('invite, change role, never their own account; the audit log names the admin and filters', async () => {
    const boss = await seedStaff(api, { role: 'admin' })
    const as = { headers: bearer(boss.token) }
    const email = newEmail('invitee')
    const invited = await api.post('/admin/staff/invite', { email, role: 'reviewer' }, as)
    expect(staffDeskApi.invite.data.parse(invited.body.data).staff.createdBy).toBe(`staff:${boss.email}`)
    api.clock.advance(1)
    const promoted = await api.post('/admin/staff/role', { email, role: 'payouts' }, as)
    expect(staffDeskApi.role.data.parse(promoted.body.data)).toMatchObject({ email, role: 'payouts' })
    expect((await api.post('/admin/staff/role', { email: boss.email, role: 'reviewer' }, as)).body).toMatchObject(Refusals.STAFF_SELF)
    expect((await api.post('/admin/staff/disable', { email: boss.email }, as)).body).toMatchObject(Refusals.STAFF_SELF)
    expect((await api.post('/admin/staff/reset', { email: newEmail('ghost') }, as)).body).toMatchObject(Refusals.STAFF_NOT_FOUND)
    expect((await api.post('/admin/staff/role', { email, role: 'boss' }, as)).status).toBe(400)

    const list = staffDeskApi.list.data.parse((await api.get('/admin/staff/list', as)).body.data)
    expect(list.find((m) => m.email === email)).toMatchObject({ role: 'payouts', status: 'invited' })

    const page = staffDeskApi.audit.data.parse(
      (await api.get(`/admin/audit/page?actor=${encodeURIComponent(`staff:${boss.email}`)}&pageSize=50`, as)).body.data,
    )
    expect(page.list.map((e) => e.action)).toEqual(['staff.role', 'staff.invite'])
    expect(page.list[0]).toMatchObject({ targetType: 'staff', before: { role: 'reviewer' }, after: { role: 'payouts' } })
    const byAction = staffDeskApi.audit.data.parse((await api.get('/admin/audit/page?action=staff.role&pageSize=50', as)).body.data)
    expect(byAction.list.every((e) => e.action === 'staff.role')).toBe(true)
    const none = staffDeskApi.audit.data.parse((await api.get(`/admin/audit/page?from=${api.clock.now() + 1}`, as)).body.data)
    expect(none.total).toBe(0)
  })

  it('no secret reaches the log: passwords, seeds, codes, tokens', async () => {
    const s = await enrol('admin')
    const session = await sessionOf(s.email, s.seed)
    const logs = api.logs.join('\n')
    for (const secret of [PASSWORD, s.seed, session.token, s.setupToken]) expect(logs).not.toContain(secret)
  })
})
