import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { staffDeskApi, STAFF_CODE_FAILURE_WINDOW_MS, staffApi } from '#contract/ops/staff'
import { Refusals } from '#contract/refusals'
import { newEmail, useTestApi } from '../support/kit'
import { bearer, codeAt, seedStaff, STAFF_PASSWORD } from '../support/staff'
import { TEST_ADMIN_TOKEN } from '../support/wallet'

/**
 * Staff sign-in that a stranger cannot wear down and a colleague cannot lock out: wrong codes
 * count over a window, wrong passwords per account, and the per-address limit is for sign-in only.
 */
const api = useTestApi({ web: false, config: { authRateLimit: 8, loginFailLimit: 4 } })

const STEP = 30_000
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
/** Each caller its own address, so the per-address limit does not end a test meant for another limit. */
let addresses = 0
const from = () => ({ 'x-forwarded-for': `198.51.100.${(++addresses % 250) + 1}` })

async function challengeOf(email: string, headers = from()) {
  const res = await api.post('/staff/login', { email, password: STAFF_PASSWORD }, { headers })
  expect(res.body.code, res.text).toBe(Code.OK)
  return staffApi.login.data.parse(res.body.data).challenge
}

describe('wrong authenticator codes', () => {
  it('are not wiped by the owner’s next good sign-in: the tenth within the window locks', async () => {
    const s = await seedStaff(api, { role: 'reviewer' })
    for (let round = 0; round < 5; round++) {
      api.clock.advance(STEP)
      const challenge = await challengeOf(s.email)
      const wrong = wrongOf(codeAt(api, s.seed))
      // A stranger's guess…
      expect((await api.post('/staff/verify', { challenge, code: wrong }, { headers: from() })).body).toMatchObject(
        round < 4 ? Refusals.STAFF_BAD_CODE : {},
      )
      if (round === 4) break
      // …and the owner signs in between.
      expect((await api.post('/staff/verify', { challenge, code: codeAt(api, s.seed) }, { headers: from() })).body.code).toBe(Code.OK)
    }
    // Five wrong so far, with four good sign-ins between: five more lock.
    const challenge = await challengeOf(s.email)
    const answers: number[] = []
    for (let i = 0; i < 5; i++)
      answers.push((await api.post('/staff/verify', { challenge, code: wrongOf(codeAt(api, s.seed)) }, { headers: from() })).body.code)
    expect(answers).toEqual([...Array(4).fill(Refusals.STAFF_BAD_CODE.code), Refusals.STAFF_LOCKED.code])
    const row = await api.db.selectFrom('staff').selectAll().where('id', '=', s.staffId).executeTakeFirstOrThrow()
    expect(row.locked_at).not.toBeNull()
  })

  it('a wrong code older than the window no longer counts', async () => {
    const s = await seedStaff(api, { role: 'reviewer' })
    for (let i = 0; i < 9; i++) {
      const challenge = await challengeOf(s.email)
      expect((await api.post('/staff/verify', { challenge, code: wrongOf(codeAt(api, s.seed)) }, { headers: from() })).body).toMatchObject(
        Refusals.STAFF_BAD_CODE,
      )
    }
    api.clock.advance(STAFF_CODE_FAILURE_WINDOW_MS)
    const challenge = await challengeOf(s.email)
    expect((await api.post('/staff/verify', { challenge, code: wrongOf(codeAt(api, s.seed)) }, { headers: from() })).body).toMatchObject(
      Refusals.STAFF_BAD_CODE,
    )
  })
})

describe('wrong passwords per staff account', () => {
  it('lock the account after LOGIN_FAIL_LIMIT from any addresses, for 15 minutes; another account is not touched', async () => {
    const s = await seedStaff(api, { role: 'payouts' })
    const other = await seedStaff(api, { role: 'payouts' })
    for (let i = 0; i < 4; i++) {
      const res = await api.post('/staff/login', { email: s.email, password: `guess number ${i}` }, { headers: from() })
      expect(res.body).toMatchObject(Refusals.STAFF_BAD_CREDENTIALS)
    }
    const locked = await api.post('/staff/login', { email: s.email.toUpperCase(), password: STAFF_PASSWORD }, { headers: from() })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(60)
    expect((await api.post('/staff/login', { email: other.email, password: STAFF_PASSWORD }, { headers: from() })).body.code).toBe(Code.OK)
    api.clock.advance(15 * 60_000)
    expect((await api.post('/staff/login', { email: s.email, password: STAFF_PASSWORD }, { headers: from() })).body.code).toBe(Code.OK)
  })
})

describe('the per-address limit', () => {
  it('counts sign-in, its code and the set-up link, never a console page’s /staff/me', async () => {
    const office = { 'x-forwarded-for': '203.0.113.7' }
    const s = await seedStaff(api, { role: 'reviewer' })
    for (let i = 0; i < 40; i++) expect((await api.get('/staff/me', { headers: { ...bearer(s.token), ...office } })).status).toBe(200)
    expect((await api.post('/staff/logout', {}, { headers: { ...bearer((await seedStaff(api)).token), ...office } })).status).toBe(200)
    // The office can still sign in: the page views above were not sign-in attempts.
    const challenge = await challengeOf(s.email, office)
    api.clock.advance(STEP)
    expect((await api.post('/staff/verify', { challenge, code: codeAt(api, s.seed) }, { headers: office })).body.code).toBe(Code.OK)
    // The set-up link is counted with sign-in: eight calls in all from here, then a wait.
    const invited = staffDeskApi.invite.data.parse(
      (await api.post('/admin/staff/invite', { email: newEmail('office'), role: 'reviewer' }, { headers: bearer(TEST_ADMIN_TOKEN) })).body
        .data,
    )
    const answers: number[] = []
    for (let i = 0; i < 7; i++)
      answers.push((await api.post('/staff/setup/start', { token: invited.setupToken }, { headers: office })).status)
    expect(answers.slice(0, 6)).toEqual(Array(6).fill(200))
    expect(answers[6]).toBe(429)
    expect((await api.get('/staff/me', { headers: { ...bearer(s.token), ...office } })).status).toBe(200)
  })
})

describe('the set-up link’s key', () => {
  it('is the same at every opening until set-up is done (a preview, a prefetch, a reload)', async () => {
    const invited = staffDeskApi.invite.data.parse(
      (await api.post('/admin/staff/invite', { email: newEmail('key'), role: 'reviewer' }, { headers: bearer(TEST_ADMIN_TOKEN) })).body
        .data,
    )
    const open = async () =>
      staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: invited.setupToken }, { headers: from() })).body.data)
    const [a, b] = await Promise.all([open(), open()])
    expect(b.secret).toBe(a.secret)
    const weak = await api.post(
      '/staff/setup/complete',
      { token: invited.setupToken, password: 'short', code: codeAt(api, a.secret) },
      { headers: from() },
    )
    expect(weak.status).toBe(400)
    expect(weak.body.msg).toBe('password: Password must be at least 12 characters')
    expect((await open()).secret).toBe(a.secret)
    api.clock.advance(STEP)
    const done = await api.post(
      '/staff/setup/complete',
      { token: invited.setupToken, password: 'a long staff passphrase 42', code: codeAt(api, a.secret) },
      { headers: from() },
    )
    expect(done.body.code, done.text).toBe(Code.OK)
  })
})
