import { describe, expect, it } from 'vitest'
import { formatRate, parseRate, payoutFor, type Rate } from '#contract/catalogue'
import { formatMoney } from '#contract/money'
import { staffDeskApi } from '#contract/ops/staff'
import { Refusals } from '#contract/refusals'
import * as dashboard from '~/ops/routes/ops._index'
import * as audit from '~/ops/routes/ops.audit'
import * as people from '~/ops/routes/ops.people'
import * as person from '~/ops/routes/ops.people_.$userId'
import * as rates from '~/ops/routes/ops.rates'
import * as staffDesk from '~/ops/routes/ops.staff'
import { staffJar, staffToastOf } from '../support/console'
import { newEmail } from '../support/kit'
import { useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser } from '../support/wallet'
import { jsonOf, load, submit } from '../support/web'

/** The dashboard and the admin desk: loaders and actions with real Requests against the real api. */
const api = useSellingApi({ web: true })

const MIN = 100_000_000 // ADJUSTMENT_APPROVAL_MIN's default (₦1,000,000)

describe('/ops (dashboard)', () => {
  it('gives an admin every part and a reviewer only the orders', async () => {
    const admin = await staffJar(api, 'admin')
    const board = (await jsonOf(await load(dashboard.loader, '/ops', admin.jar))).board
    expect(board.books).toMatchObject({ balanced: true })
    expect(board.withdrawals).not.toBeNull()
    expect(board.reviewDays).toHaveLength(7)
    const reviewer = await staffJar(api, 'reviewer')
    const theirs = (await jsonOf(await load(dashboard.loader, '/ops', reviewer.jar))).board
    expect(theirs.orders).not.toBeNull()
    expect(theirs.withdrawals).toBeNull()
    expect(theirs.books).toBeNull()
  })
})

describe('the admin desk refuses a reviewer', () => {
  it('every admin page is a 403 for a reviewer, and the api refuses their calls anyway', async () => {
    const { jar, staff } = await staffJar(api, 'reviewer')
    for (const [mod, path, params] of [
      [rates, '/ops/rates', {}],
      [people, '/ops/people', {}],
      [person, '/ops/people/x', { userId: 'x' }],
      [staffDesk, '/ops/staff', {}],
      [audit, '/ops/audit', {}],
    ] as const) {
      expect((await load(mod.loader, path, jar, params)).status, path).toBe(403)
      if ('action' in mod) expect((await submit(mod.action, path, { intent: 'x' }, jar, params)).status, path).toBe(403)
    }
    const headers = bearer(staff.token)
    expect(
      (await api.post('/admin/giftcard/rate', { brandId: 'apple', country: 'US', cardType: 'ecode', rate: '1.00' }, { headers })).status,
    ).toBe(403)
    expect((await api.get('/admin/wallet/adjust/pending', { headers })).status).toBe(403)
    expect((await api.get('/admin/audit/page', { headers })).status).toBe(403)
  })
})

describe('/ops/rates', () => {
  it('sets a rate and an ETA with plain forms; the history keeps both rates; bad input is a 400 sentence', async () => {
    const { jar, staff } = await staffJar(api, 'admin')
    const key = 'apple:US:ecode'
    const set = await submit(
      rates.action,
      '/ops/rates',
      { intent: 'rate', brandId: 'apple', country: 'US', cardType: 'ecode', rate: '1234.56' },
      jar,
    )
    expect(set).toHaveRedirect('/ops/rates')
    expect(await staffToastOf(set)).toMatchObject({ type: 'success' })
    const page = await jsonOf(await load(rates.loader, `/ops/rates?history=${encodeURIComponent(key)}`, jar))
    expect(page.chosen).toMatchObject({ rate: '1234.56' })
    expect(page.history[0]).toMatchObject({ rate: '1234.56', setBy: `staff:${staff.email}` })
    expect(page.history.length).toBeGreaterThanOrEqual(2)

    const bad = await submit(
      rates.action,
      '/ops/rates',
      { intent: 'rate', brandId: 'apple', country: 'US', cardType: 'ecode', rate: '-3' },
      jar,
    )
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).error).toMatch(/positive decimal/)

    const eta = await submit(rates.action, '/ops/rates', { intent: 'eta', brandId: 'apple', etaMinutes: '25' }, jar)
    expect(eta).toHaveRedirect('/ops/rates')
    const brands = (await jsonOf(await load(rates.loader, '/ops/rates', jar))).brands
    expect(brands.find((b: { brandId: string }) => b.brandId === 'apple').etaMinutes).toBe(25)
    expect((await submit(rates.action, '/ops/rates', { intent: 'eta', brandId: 'apple', etaMinutes: 'soon' }, jar)).status).toBe(400)
  })
})

describe('/ops/people', () => {
  it('finds a person by e-mail or id, shows their page, and says when nobody matches', async () => {
    const { jar } = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 10_000 })
    expect(await load(people.loader, `/ops/people?q=${encodeURIComponent(p.email)}`, jar)).toHaveRedirect(`/ops/people/${p.userId}`)
    expect(await load(people.loader, `/ops/people?q=${p.userId}`, jar)).toHaveRedirect(`/ops/people/${p.userId}`)
    const none = await jsonOf(await load(people.loader, `/ops/people?q=${encodeURIComponent(newEmail('nobody'))}`, jar))
    expect(none.notFound).toBeTruthy()
    const page = await jsonOf(await load(person.loader, `/ops/people/${p.userId}`, jar, { userId: p.userId }))
    expect(page.person).toMatchObject({ email: p.email, balance: 10_000 })
    expect(page.person.bankAccounts).toHaveLength(1)
    expect(page.ledger.list[0]).toMatchObject({ type: 'adjustment', amount: 10_000 })
    expect(JSON.stringify(page)).not.toContain(p.token)
    expect((await load(person.loader, '/ops/people/nobody', jar, { userId: 'nobody' })).status).toBe(404)
  })

  it('maker-checker: admin A asks for a large credit, A cannot approve it, B approves; the ledger moves once; both names in the audit log', async () => {
    const a = await staffJar(api, 'admin')
    const b = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 0, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    const { requestId } = await jsonOf(await load(person.loader, path, a.jar, { userId: p.userId }))
    const form = {
      intent: 'adjust',
      currency: 'NGN',
      direction: 'credit',
      amount: String(MIN / 100 + 1),
      reason: 'Refund of a lost card',
      requestId,
    }
    const asked = await submit(person.action, path, form, a.jar, { userId: p.userId })
    expect(asked).toHaveRedirect(path)
    expect((await staffToastOf(asked))?.message).toMatch(/waits for a second admin/)
    // The same form again (a double submit): still one request.
    await submit(person.action, path, form, a.jar, { userId: p.userId })
    const waiting = (await jsonOf(await load(people.loader, '/ops/people', a.jar))).pending.filter(
      (r: { userId: string }) => r.userId === p.userId,
    )
    expect(waiting).toHaveLength(1)
    expect(waiting[0].maker).toBe(`staff:${a.staff.email}`)

    const own = await submit(people.action, '/ops/people', { intent: 'approve', id: waiting[0].id }, a.jar)
    expect(own.status).toBe(400)
    expect((await jsonOf(own)).error).toMatch(/Another admin must approve/)
    expect((await jsonOf(await load(person.loader, path, a.jar, { userId: p.userId }))).person.balance).toBe(0)

    const approved = await submit(people.action, '/ops/people', { intent: 'approve', id: waiting[0].id }, b.jar)
    expect(approved).toHaveRedirect('/ops/people')
    const again = await submit(people.action, '/ops/people', { intent: 'approve', id: waiting[0].id }, b.jar)
    expect(again.status).toBe(302)
    const after = await jsonOf(await load(person.loader, path, b.jar, { userId: p.userId }))
    expect(after.person.balance).toBe(MIN + 100)
    expect(after.ledger.total).toBe(1)

    const log = await jsonOf(await load(audit.loader, `/ops/audit?action=wallet.adjust&targetId=${p.userId}`, b.jar))
    expect(log.page.list).toHaveLength(1)
    expect(log.page.list[0].actor).toBe(`staff:${b.staff.email}`)
    expect(log.page.list[0].after).toMatchObject({ maker: `staff:${a.staff.email}`, checker: `staff:${b.staff.email}` })
  })

  it('a small adjustment moves at once; bad input is a 400 sentence', async () => {
    const { jar } = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 0, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    const { requestId } = await jsonOf(await load(person.loader, path, jar, { userId: p.userId }))
    const base = { intent: 'adjust', currency: 'NGN', direction: 'credit', reason: 'Goodwill', requestId }
    expect((await submit(person.action, path, { ...base, amount: 'lots' }, jar, { userId: p.userId })).status).toBe(400)
    expect((await submit(person.action, path, { ...base, amount: '10', reason: 'x' }, jar, { userId: p.userId })).status).toBe(400)
    const debit = await submit(person.action, path, { ...base, amount: '10', direction: 'debit' }, jar, { userId: p.userId })
    expect(debit.status).toBe(400)
    expect((await jsonOf(debit)).error).toMatch(/below zero/)
    const credit = await submit(person.action, path, { ...base, amount: '1500.50' }, jar, { userId: p.userId })
    expect(credit).toHaveRedirect(path)
    expect((await jsonOf(await load(person.loader, path, jar, { userId: p.userId }))).person.balance).toBe(150_050)
  })
})

describe('/ops/staff', () => {
  it('invites (the set-up link once, on the page), changes a role, resets and disables', async () => {
    const { jar } = await staffJar(api, 'admin')
    const email = newEmail('invited')
    const invited = await submit(staffDesk.action, '/ops/staff', { intent: 'invite', email, role: 'reviewer' }, jar)
    expect(invited.status).toBe(200)
    expect(invited.headers.get('Cache-Control')).toBe('no-store')
    const { setup } = await jsonOf(invited)
    expect(setup).toMatchObject({ email, why: 'invited' })
    expect(setup.link).toMatch(/^\/ops\/setup\/[A-Za-z0-9_-]{16,}$/)
    expect(setup.expiresAt).toBeGreaterThan(api.clock.now())
    const token = setup.link.split('/').pop()
    expect((await api.post('/staff/setup/start', { token })).body.data).toMatchObject({ email, role: 'reviewer' })
    // Not in the list page, not again.
    expect(JSON.stringify(await jsonOf(await load(staffDesk.loader, '/ops/staff', jar)))).not.toContain(token)

    expect(await submit(staffDesk.action, '/ops/staff', { intent: 'role', email, role: 'payouts' }, jar)).toHaveRedirect('/ops/staff')
    const list = staffDeskApi.list.data.parse((await jsonOf(await load(staffDesk.loader, '/ops/staff', jar))).staff)
    expect(list.find((s) => s.email === email)?.role).toBe('payouts')

    const reset = await jsonOf(await submit(staffDesk.action, '/ops/staff', { intent: 'reset', email }, jar))
    expect(reset.setup).toMatchObject({ email, why: 'reset' })
    expect(reset.setup.link).not.toBe(setup.link)

    expect(await submit(staffDesk.action, '/ops/staff', { intent: 'disable', email, confirmed: 'yes' }, jar)).toHaveRedirect('/ops/staff')
    const dup = await submit(staffDesk.action, '/ops/staff', { intent: 'invite', email, role: 'reviewer' }, jar)
    expect(dup.status).toBe(400)
    expect((await jsonOf(dup)).error).toMatch(/already exists/)
  })
})

describe('/ops/staff: disabling asks first', () => {
  it('without JavaScript the Disable button opens a confirm step; only its form disables, and they are out at once', async () => {
    const { jar } = await staffJar(api, 'admin')
    const target = await staffJar(api, 'reviewer')
    const email = target.staff.email
    const step = `/ops/staff?${new URLSearchParams({ disable: email })}`
    // A disable without the step's confirmation is sent to the step; nothing changes.
    expect(await submit(staffDesk.action, '/ops/staff', { intent: 'disable', email }, jar)).toHaveRedirect(step)
    expect((await api.get('/staff/me', { headers: bearer(target.staff.token) })).status).toBe(200)
    expect((await jsonOf(await load(staffDesk.loader, step, jar))).confirm).toBe(email)
    // Nobody else, an unknown address or oneself is never asked about.
    expect((await jsonOf(await load(staffDesk.loader, '/ops/staff?disable=nobody@example.com', jar))).confirm).toBeNull()
    expect((await jsonOf(await load(staffDesk.loader, '/ops/staff', jar))).confirm).toBeNull()
    const done = await submit(staffDesk.action, step, { intent: 'disable', email, confirmed: 'yes' }, jar)
    expect(done).toHaveRedirect('/ops/staff')
    expect(await staffToastOf(done)).toMatchObject({ type: 'success', message: `${email} is disabled and signed out` })
    // Their console session ends at once: the next page is the staff sign-in.
    expect((await api.get('/staff/me', { headers: bearer(target.staff.token) })).status).toBe(401)
    expect(await load(dashboard.loader, '/ops', target.jar)).toHaveRedirect(/^\/ops\/login/)
    expect((await jsonOf(await load(staffDesk.loader, step, jar))).confirm).toBeNull()
  })
})

describe('/ops/audit', () => {
  it('filters by actor e-mail, action, target and day, paged; a bad day is a 400 sentence', async () => {
    const { jar, staff } = await staffJar(api, 'admin')
    await submit(rates.action, '/ops/rates', { intent: 'eta', brandId: 'vanilla', etaMinutes: '31' }, jar)
    const day = new Date(api.clock.now()).toISOString().slice(0, 10)
    const found = await jsonOf(await load(audit.loader, `/ops/audit?actor=${encodeURIComponent(staff.email)}&from=${day}&to=${day}`, jar))
    expect(found.page.list.length).toBeGreaterThanOrEqual(1)
    expect(found.page.list.every((e: { actor: string }) => e.actor === `staff:${staff.email}`)).toBe(true)
    const none = await jsonOf(
      await load(audit.loader, `/ops/audit?actor=${encodeURIComponent(staff.email)}&from=2001-01-01&to=2001-01-02`, jar),
    )
    expect(none.page.total).toBe(0)
    const bad = await load(audit.loader, '/ops/audit?from=yesterday', jar)
    expect(bad.status).toBe(400)
    expect((await jsonOf(bad)).error).toMatch(/date/)
  })
})

describe('maker-checker that needs two people (decision 041)', () => {
  it('the staff desk confirms a new admin, never by its inviter; audited', async () => {
    const a = await staffJar(api, 'admin')
    const b = await staffJar(api, 'admin')
    const fresh = await seedStaff(api, { role: 'admin', confirmed: false, createdBy: `staff:${a.staff.email}` })
    const staffOf = async (jar: typeof a.jar) =>
      staffDeskApi.list.data.parse((await jsonOf(await load(staffDesk.loader, '/ops/staff', jar))).staff)
    expect((await staffOf(a.jar)).find((s) => s.email === fresh.email)?.confirmedBy).toBeNull()
    const byInviter = await submit(staffDesk.action, '/ops/staff', { intent: 'confirm', email: fresh.email }, a.jar)
    expect(byInviter.status).toBe(400)
    expect((await jsonOf(byInviter)).error).toBe(Refusals.STAFF_CONFIRM_LINKED.msg)
    const confirmed = await submit(staffDesk.action, '/ops/staff', { intent: 'confirm', email: fresh.email }, b.jar)
    expect(confirmed).toHaveRedirect('/ops/staff')
    expect((await staffToastOf(confirmed))?.message).toMatch(/confirmed admin/)
    expect((await staffOf(b.jar)).find((s) => s.email === fresh.email)?.confirmedBy).toBe(`staff:${b.staff.email}`)
    const log = await jsonOf(await load(audit.loader, `/ops/audit?action=staff.confirm`, b.jar))
    expect(log.page.list[0]).toMatchObject({ actor: `staff:${b.staff.email}`, targetId: fresh.staffId })
  })

  it('the adjust form refuses a missing field before the money call, and a refusal keeps its requestId', async () => {
    const { jar } = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 0, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    const { requestId } = await jsonOf(await load(person.loader, path, jar, { userId: p.userId }))
    const form = { intent: 'adjust', currency: 'NGN', direction: 'credit', amount: '15000', reason: 'Refund of a lost card', requestId }
    for (const missing of ['currency', 'requestId', 'direction'] as const) {
      const { [missing]: _gone, ...rest } = form
      const res = await submit(person.action, path, rest, jar, { userId: p.userId })
      expect(res.status, missing).toBe(400)
      expect((await jsonOf(res)).error, missing).toMatch(/form is incomplete/)
    }
    expect((await jsonOf(await load(person.loader, path, jar, { userId: p.userId }))).person.balance).toBe(0)
    expect(await api.db.selectFrom('adjustment_requests').select('id').where('user_id', '=', p.userId).execute()).toEqual([])

    // Refused by the api (a debit larger than the balance): the same requestId comes back to the form.
    const debit = await submit(person.action, path, { ...form, direction: 'debit' }, jar, { userId: p.userId })
    expect(debit.status).toBe(400)
    expect(await jsonOf(debit)).toMatchObject({ error: Refusals.ADJUSTMENT_TOO_LARGE.msg, requestId })
  })

  it('the queue names the person by e-mail with their balance, the maker, and a request like another', async () => {
    const a = await staffJar(api, 'admin')
    const b = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 5_000, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    for (let i = 0; i < 2; i++) {
      const { requestId } = await jsonOf(await load(person.loader, path, a.jar, { userId: p.userId }))
      const form = { intent: 'adjust', currency: 'NGN', direction: 'credit', amount: String(2 * (MIN / 100)), reason: 'Refund', requestId }
      expect(await submit(person.action, path, form, a.jar, { userId: p.userId })).toHaveRedirect(path)
    }
    const queue = (await jsonOf(await load(people.loader, '/ops/people', b.jar))).pending.filter(
      (r: { userId: string }) => r.userId === p.userId,
    )
    expect(queue).toHaveLength(2)
    for (const r of queue) expect(r).toMatchObject({ email: p.email, balance: 5_000, maker: `staff:${a.staff.email}`, alike: 1 })
  })
})

describe('a rate typo cannot go live (decision 041)', () => {
  const key = { brandId: 'xbox', country: 'US', cardType: 'physical' }
  const rateNow = async (jar: Awaited<ReturnType<typeof staffJar>>['jar']) =>
    (await jsonOf(await load(rates.loader, '/ops/rates', jar))).rates.find(
      (r: Rate) => r.brandId === 'xbox' && r.country === 'US' && r.cardType === 'physical',
    ).rate as string

  it('ten times the rate: a confirmation step with old → new, the change and a US$100 card; then a second admin', async () => {
    const a = await staffJar(api, 'admin')
    const b = await staffJar(api, 'admin')
    const before = await rateNow(a.jar)
    const typo = formatRate(parseRate(before)! * 10)
    const step = await submit(rates.action, '/ops/rates', { intent: 'rate', ...key, rate: typo }, a.jar)
    expect(step.status).toBe(200)
    const { check } = await jsonOf(step)
    expect(check).toMatchObject({ before, rate: typo, changePercent: 900, face: 'US$100.00' })
    expect(check.payoutAfter).toBe(formatMoney(payoutFor(10_000, typo, 'USD', 'NGN'), 'NGN'))
    expect(check.payoutBefore).toBe(formatMoney(payoutFor(10_000, before, 'USD', 'NGN'), 'NGN'))
    expect(await rateNow(a.jar)).toBe(before)

    const asked = await submit(rates.action, '/ops/rates', { intent: 'rate', ...key, rate: typo, confirmed: 'yes' }, a.jar)
    expect(asked).toHaveRedirect('/ops/rates')
    expect((await staffToastOf(asked))?.message).toMatch(/\+900\.00 %\) waits for a second admin/)
    expect(await rateNow(a.jar)).toBe(before)
    const { waiting } = await jsonOf(await load(rates.loader, '/ops/rates', b.jar))
    const id = waiting.find((w: { rate: string }) => w.rate === typo).id
    const own = await submit(rates.action, '/ops/rates', { intent: 'approve', id }, a.jar)
    expect(own.status).toBe(400)
    expect((await jsonOf(own)).error).toBe(Refusals.RATE_CHANGE_OWN.msg)
    expect(await submit(rates.action, '/ops/rates', { intent: 'approve', id }, b.jar)).toHaveRedirect('/ops/rates')
    expect(await rateNow(a.jar)).toBe(typo)
  })

  it('a change between 20 % and 50 % goes live once confirmed, by one admin', async () => {
    const { jar } = await staffJar(api, 'admin')
    const before = await rateNow(jar)
    const higher = formatRate(Math.round((parseRate(before)! * 1.3) / 1_000_000) * 1_000_000)
    expect((await jsonOf(await submit(rates.action, '/ops/rates', { intent: 'rate', ...key, rate: higher }, jar))).check).toMatchObject({
      rate: higher,
    })
    expect(await submit(rates.action, '/ops/rates', { intent: 'rate', ...key, rate: higher, confirmed: 'yes' }, jar)).toHaveRedirect(
      '/ops/rates',
    )
    expect(await rateNow(jar)).toBe(higher)
  })
})
