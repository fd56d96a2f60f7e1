import { describe, expect, it } from 'vitest'
import type { StaffRole } from '#contract/endpoint'
import { Code } from '#contract/envelope'
import { opsMoneyApi } from '#contract/ops/money'
import { staffDeskApi, staffApi } from '#contract/ops/staff'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { bearer, codeAt, seedStaff, STAFF_PASSWORD } from '../support/staff'
import { requestId, TEST_ADMIN_TOKEN, walletInfo } from '../support/wallet'

/**
 * Maker-checker that needs two people (decision 041), tried as a dishonest insider: a second
 * account of one's own, adjustments cut into pieces, a maker who is gone.
 */
const api = useTestApi({ web: false })

const MIN = 100_000_000 // the default ADJUSTMENT_APPROVAL_MIN (₦1,000,000)
const PASSWORD = 'a long staff passphrase 42'
const STEP = 30_000
const DAY = 86_400_000

type Admin = Awaited<ReturnType<typeof adminOf>>

function adminOf(email: string, token: string) {
  const headers = bearer(token)
  return {
    email,
    actor: `staff:${email}`,
    headers,
    adjust: (userId: string, amount: number, id = requestId(), reason = 'Goodwill credit') =>
      api.post('/admin/wallet/adjust', { userId, amount, reason, requestId: id }, { headers }),
    pending: async () => opsMoneyApi.pendingAdjustments.data.parse((await api.get('/admin/wallet/adjust/pending', { headers })).body.data),
    approve: (id: string) => api.post('/admin/wallet/adjust/approve', { id }, { headers }),
    confirm: (who: string) => api.post('/admin/staff/confirm', { email: who }, { headers }),
    invite: (who: string, role: StaffRole) => api.post('/admin/staff/invite', { email: who, role }, { headers }),
    reset: (who: string) => api.post('/admin/staff/reset', { email: who }, { headers }),
    role: (who: string, role: StaffRole) => api.post('/admin/staff/role', { email: who, role }, { headers }),
    disable: (who: string) => api.post('/admin/staff/disable', { email: who }, { headers }),
  }
}

const seededAdmin = async (options: { confirmed?: boolean; createdBy?: string } = {}) => {
  const s = await seedStaff(api, { role: 'admin', ...options })
  return adminOf(s.email, s.token)
}

/** Takes a set-up link through set-up and sign-in, as whoever holds the link would. */
async function takeLink(email: string, setupToken: string): Promise<Admin> {
  const start = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: setupToken })).body.data)
  api.clock.advance(STEP)
  const done = await api.post('/staff/setup/complete', { token: setupToken, password: PASSWORD, code: codeAt(api, start.secret) })
  expect(done.body.code, done.text).toBe(Code.OK)
  api.clock.advance(STEP)
  const login = await api.post('/staff/login', { email, password: PASSWORD })
  const { challenge } = staffApi.login.data.parse(login.body.data)
  const verified = await api.post('/staff/verify', { challenge, code: codeAt(api, start.secret) })
  return adminOf(email, staffApi.verify.data.parse(verified.body.data).token)
}

const linkOf = (res: { body: { data: unknown }; text: string }) => staffDeskApi.invite.data.parse(res.body.data).setupToken

const person = async () => {
  const { user, token } = await seedUser(api, { email: newEmail('adjusted') })
  return { userId: user.id, token }
}

const requestOf = (res: { body: { data: unknown } }) => {
  const data = opsMoneyApi.adjust.data.parse(res.body.data)
  if (data.type !== 'adjustment_request') throw new Error(`expected a request, got ${JSON.stringify(data)}`)
  return data
}

describe('a checker is another person', () => {
  it('an admin who invites a second admin account for themself cannot approve their own ₦1,500,000 with it, nor confirm it', async () => {
    const maker = await seededAdmin()
    const colleague = await seededAdmin()
    const p = await person()
    const sockEmail = newEmail('sock')
    const sock = await takeLink(sockEmail, linkOf(await maker.invite(sockEmail, 'admin')))
    const asked = requestOf(await maker.adjust(p.userId, 150_000_000))

    // New and unconfirmed: it approves nothing.
    expect((await sock.approve(asked.id)).body).toMatchObject(Refusals.CHECKER_NOT_CONFIRMED)
    // Its inviter cannot confirm it, nor can it confirm itself, nor an admin nobody confirmed.
    expect((await maker.confirm(sockEmail)).body).toMatchObject(Refusals.STAFF_CONFIRM_LINKED)
    expect((await sock.confirm(sockEmail)).body).toMatchObject(Refusals.STAFF_SELF)
    const stranger = await seededAdmin({ confirmed: false })
    expect((await stranger.confirm(sockEmail)).body).toMatchObject(Refusals.STAFF_CONFIRM_UNCONFIRMED)
    expect((await walletInfo(api, p.token)).balance).toBe(0)

    // A colleague confirms it (audited), yet it approves nothing asked before, nor anything of its inviter's.
    api.clock.advance(1000)
    const confirmed = await colleague.confirm(sockEmail)
    expect(staffDeskApi.confirm.data.parse(confirmed.body.data)).toMatchObject({ email: sockEmail, confirmedBy: colleague.actor })
    const log = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'staff.confirm')
      .where('actor', '=', colleague.actor)
      .execute()
    expect(log).toHaveLength(1)
    expect((await sock.approve(asked.id)).body).toMatchObject(Refusals.CHECKER_TOO_NEW)
    api.clock.advance(1000)
    const later = requestOf(await maker.adjust(p.userId, 150_000_000, requestId(), 'Another goodwill credit'))
    expect((await sock.approve(later.id)).body).toMatchObject(Refusals.CHECKER_LINKED)
    // Nor the other way round: what the sock asks, its inviter cannot approve.
    const sockPerson = await person()
    const bySock = requestOf(await sock.adjust(sockPerson.userId, 150_000_000))
    expect((await maker.approve(bySock.id)).body).toMatchObject(Refusals.CHECKER_LINKED)
    expect((await walletInfo(api, p.token)).balance).toBe(0)
    expect((await walletInfo(api, sockPerson.token)).balance).toBe(0)

    // The colleague is a second person: the money moves.
    expect((await colleague.approve(asked.id)).body.code).toBe(Code.OK)
    expect((await walletInfo(api, p.token)).balance).toBe(150_000_000)
  })

  it('an account the maker reset or made admin is tied to them; a reset or promotion ends a confirmation', async () => {
    const maker = await seededAdmin()
    const colleague = await seededAdmin()
    const p = await person()

    // Reset by the maker: the maker held the new set-up link.
    const resetOne = await seededAdmin()
    const taken = await takeLink(resetOne.email, linkOf(await maker.reset(resetOne.email)))
    const afterReset = staffDeskApi.list.data.parse((await api.get('/admin/staff/list', { headers: colleague.headers })).body.data)
    expect(afterReset.find((s) => s.email === resetOne.email)?.confirmedBy).toBeNull()
    expect((await colleague.confirm(resetOne.email)).body.code).toBe(Code.OK)

    // Made admin by the maker.
    const reviewer = await seedStaff(api, { role: 'reviewer' })
    expect((await maker.role(reviewer.email, 'admin')).body.code).toBe(Code.OK)
    const promoted = adminOf(reviewer.email, reviewer.token)
    expect((await promoted.approve('nope')).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
    expect((await maker.confirm(reviewer.email)).body).toMatchObject(Refusals.STAFF_CONFIRM_LINKED)
    expect((await colleague.confirm(reviewer.email)).body.code).toBe(Code.OK)

    api.clock.advance(1000)
    const asked = requestOf(await maker.adjust(p.userId, 150_000_000))
    expect((await taken.approve(asked.id)).body).toMatchObject(Refusals.CHECKER_LINKED)
    expect((await promoted.approve(asked.id)).body).toMatchObject(Refusals.CHECKER_LINKED)
    expect((await walletInfo(api, p.token)).balance).toBe(0)
  })

  it('the first two admins added with ADMIN_TOKEN confirm each other only while no admin is confirmed', async () => {
    const adminToken = bearer(TEST_ADMIN_TOKEN)
    // Every seeded admin of this suite is confirmed: an admin-token admin nobody confirmed cannot confirm.
    const [a, b] = [newEmail('first'), newEmail('second')]
    const first = await takeLink(a, linkOf(await api.post('/admin/staff/invite', { email: a, role: 'admin' }, { headers: adminToken })))
    await takeLink(b, linkOf(await api.post('/admin/staff/invite', { email: b, role: 'admin' }, { headers: adminToken })))
    expect((await first.confirm(b)).body).toMatchObject(Refusals.STAFF_CONFIRM_UNCONFIRMED)
    // With no confirmed admin at all (a new installation), they may.
    const confirmedIds = await api.db.selectFrom('staff').select(['id', 'confirmed_at']).where('confirmed_at', 'is not', null).execute()
    await api.db.updateTable('staff').set({ confirmed_at: null, confirmed_by: null }).execute()
    expect((await first.confirm(b)).body.code).toBe(Code.OK)
    for (const s of confirmedIds)
      await api.db.updateTable('staff').set({ confirmed_at: s.confirmed_at, confirmed_by: 'test' }).where('id', '=', s.id).execute()
  })
})

describe('one admin cannot cut an adjustment into pieces', () => {
  it('three adjustments of exactly ₦1,000,000 to one person: only the first moves at once', async () => {
    const [maker, other] = [await seededAdmin(), await seededAdmin()]
    const [p, q] = [await person(), await person()]
    expect(opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN)).body.data).type).toBe('adjustment')
    expect(requestOf(await maker.adjust(p.userId, MIN)).status).toBe('pending')
    expect(requestOf(await maker.adjust(p.userId, MIN)).status).toBe('pending')
    expect((await walletInfo(api, p.token)).balance).toBe(MIN)
    // Debits count by their size too.
    expect(requestOf(await maker.adjust(p.userId, -1)).status).toBe('pending')
    // Another admin's, and another person's, are counted apart.
    expect(opsMoneyApi.adjust.data.parse((await other.adjust(p.userId, MIN)).body.data).type).toBe('adjustment')
    expect(opsMoneyApi.adjust.data.parse((await maker.adjust(q.userId, MIN)).body.data).type).toBe('adjustment')
    // 24 hours on (the rows made older: a staff session lasts 12 hours), the first ones are out of the window.
    const { created_at: made } = await api.db
      .selectFrom('adjustment_requests')
      .select('created_at')
      .where('maker', '=', maker.actor)
      .executeTakeFirstOrThrow()
    await api.db
      .updateTable('adjustment_requests')
      .set({ created_at: Number(made) - DAY - 1 })
      .where('maker', '=', maker.actor)
      .execute()
    expect(opsMoneyApi.adjust.data.parse((await maker.adjust(p.userId, MIN)).body.data).type).toBe('adjustment')
    expect((await walletInfo(api, p.token)).balance).toBe(3 * MIN)
  })

  it('a debit larger than the balance is refused when made, not queued', async () => {
    const maker = await seededAdmin()
    const p = await person()
    for (const amount of [-5, -2 * MIN]) expect((await maker.adjust(p.userId, amount)).body).toMatchObject(Refusals.ADJUSTMENT_TOO_LARGE)
    expect(await api.db.selectFrom('adjustment_requests').select('id').where('user_id', '=', p.userId).execute()).toEqual([])
  })

  it('the queue names the person by e-mail with their balance and the maker, and marks a request like another waiting one', async () => {
    const [maker, checker] = [await seededAdmin(), await seededAdmin()]
    const { user, token } = await seedUser(api, { email: newEmail('queued') })
    await checker.adjust(user.id, 12_345)
    const first = requestOf(await maker.adjust(user.id, 2 * MIN, requestId(), 'Refund of order CL-1'))
    const twin = requestOf(await maker.adjust(user.id, 2 * MIN, requestId(), 'Refund of order CL-1'))
    const other = requestOf(await maker.adjust(user.id, 3 * MIN, requestId(), 'Refund of order CL-2'))
    const queue = await checker.pending()
    const row = (id: string) => queue.find((r) => r.id === id)!
    expect(row(first.id)).toMatchObject({ email: user.email, balance: 12_345, maker: maker.actor, alike: 1 })
    expect(row(twin.id).alike).toBe(1)
    expect(row(other.id).alike).toBe(0)
    expect((await walletInfo(api, token)).balance).toBe(12_345)
  })
})

describe('a request lapses with its maker', () => {
  it('locked by wrong codes: the waiting request leaves the queue at once', async () => {
    const checker = await seededAdmin()
    const p = await person()
    const s = await seedStaff(api, { role: 'admin' })
    const maker = adminOf(s.email, s.token)
    const asked = requestOf(await maker.adjust(p.userId, 2 * MIN))
    expect((await checker.pending()).map((r) => r.id)).toContain(asked.id)
    const login = await api.post('/staff/login', { email: s.email, password: STAFF_PASSWORD })
    const { challenge } = staffApi.login.data.parse(login.body.data)
    const wrong = String((Number(codeAt(api, s.seed)) + 1) % 1_000_000).padStart(6, '0')
    let last = 0
    for (let i = 0; i < 10 && last !== Refusals.STAFF_LOCKED.code; i++)
      last = (await api.post('/staff/verify', { challenge, code: wrong })).body.code
    expect(last).toBe(Refusals.STAFF_LOCKED.code)
    expect((await checker.pending()).map((r) => r.id)).not.toContain(asked.id)
    const row = await api.db.selectFrom('adjustment_requests').select('status').where('id', '=', asked.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('lapsed')
  })

  it('disabled, locked or demoted: nobody can approve what they asked', async () => {
    const checker = await seededAdmin()
    const p = await person()
    const [disabled, locked, demoted] = [await seededAdmin(), await seededAdmin(), await seededAdmin()]
    const asked = {
      disabled: requestOf(await disabled.adjust(p.userId, 2 * MIN)),
      locked: requestOf(await locked.adjust(p.userId, 2 * MIN)),
      demoted: requestOf(await demoted.adjust(p.userId, 2 * MIN)),
    }
    expect((await checker.disable(disabled.email)).body.code).toBe(Code.OK)
    expect((await checker.role(demoted.email, 'reviewer')).body.code).toBe(Code.OK)
    // Locked by wrong codes (how is another suite's matter).
    await api.db.updateTable('staff').set({ locked_at: api.clock.now() }).where('email', '=', locked.email).execute()

    const waiting = (await checker.pending()).map((r) => r.id)
    expect(waiting).not.toContain(asked.disabled.id)
    expect(waiting).not.toContain(asked.demoted.id)
    expect((await checker.approve(asked.disabled.id)).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
    expect((await checker.approve(asked.demoted.id)).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
    expect((await checker.approve(asked.locked.id)).body).toMatchObject(Refusals.REQUEST_LAPSED)
    expect((await checker.approve(asked.locked.id)).body).toMatchObject(Refusals.ADJUSTMENT_NOT_PENDING)
    const rows = await api.db.selectFrom('adjustment_requests').select('status').where('user_id', '=', p.userId).execute()
    expect(rows.map((r) => r.status)).toEqual(['lapsed', 'lapsed', 'lapsed'])
    expect((await walletInfo(api, p.token)).balance).toBe(0)
  })
})
