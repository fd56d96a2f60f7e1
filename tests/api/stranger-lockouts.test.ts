import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { CODES_PER_ADDRESS_DAY } from '../../api/services/verify-codes'
import { seedUser, startTestApi, type TestApi } from '../support/api'
import { newEmail } from '../support/kit'

/**
 * Locks that strangers can trip must not lock the person out: the password lock and the daily
 * ceiling of e-mail codes stop guessing from anywhere, and let the person through from a device
 * or address they signed in from before (on SQLite and PostgreSQL, TEST_DB).
 */
let api: TestApi
const LIMIT = 10
const password = 'the right password 7'

beforeAll(async () => {
  api = await startTestApi({ config: { loginFailLimit: LIMIT } })
})
afterAll(async () => {
  await api?.close()
})

const from = (address: string, device?: string) => ({
  headers: { 'x-forwarded-for': address, ...(device && { 'x-cardlane-device': device }) },
})
const stranger = (i: number) => `2001:db8:${(0x200 + i).toString(16)}:${i}::7`
const HOME = '203.0.113.20'
const DEVICE = 'dev1ce-1d-of-the-person-s-phone-0001'

/** A person who signed in once at home on their phone. */
async function person() {
  const email = newEmail('owner')
  await seedUser(api, { email, password })
  expect((await api.post('/auth/login', { email, password }, from(HOME, DEVICE))).body.code).toBe(Code.OK)
  return email
}

describe('ten wrong passwords typed by strangers', () => {
  it('lock strangers out, not the person at home or on their own phone elsewhere', async () => {
    const email = await person()
    for (let i = 0; i < LIMIT; i++) {
      const res = await api.post('/auth/login', { email, password: `guess ${i}` }, from(stranger(i)))
      expect(res.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    }
    // Brute force stays stopped: even the right password from a new place is refused.
    expect((await api.post('/auth/login', { email, password }, from(stranger(99)))).status).toBe(429)
    // The person at home, and on their phone at a café, sign in.
    expect((await api.post('/auth/login', { email, password }, from(HOME))).body.code).toBe(Code.OK)
    expect((await api.post('/auth/login', { email, password }, from('198.51.100.200', DEVICE))).body.code).toBe(Code.OK)
  })

  it('a guesser at the person’s own address still meets the limit there', async () => {
    const email = await person()
    for (let i = 0; i < LIMIT; i++) {
      expect((await api.post('/auth/login', { email, password: `guess ${i}` }, from(HOME))).body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    }
    expect((await api.post('/auth/login', { email, password }, from(HOME))).status).toBe(429)
    // Their phone, a place of its own, still works.
    expect((await api.post('/auth/login', { email, password }, from('198.51.100.201', DEVICE))).body.code).toBe(Code.OK)
  })

  it('a device id the person never signed in with is a stranger', async () => {
    const email = await person()
    for (let i = 0; i < LIMIT; i++) await api.post('/auth/login', { email, password: `guess ${i}` }, from(stranger(i)))
    const forged = 'an-attacker-s-own-device-id-000000001'
    expect((await api.post('/auth/login', { email, password }, from('198.51.100.202', forged))).status).toBe(429)
  })
})

describe('the daily ceiling of e-mail codes reached by strangers', () => {
  it(`${CODES_PER_ADDRESS_DAY} asks from ${CODES_PER_ADDRESS_DAY} addresses: strangers are refused, the person at home gets a code and signs in`, async () => {
    const email = await person()
    for (let i = 0; i < CODES_PER_ADDRESS_DAY; i++) {
      const res = await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN }, from(stranger(i)))
      expect(res.body.code).toBe(Code.OK)
    }
    const over = await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN }, from(stranger(CODES_PER_ADDRESS_DAY)))
    expect(over.body).toMatchObject({ code: Refusals.CODE_LIMIT_REACHED.code })

    const mine = await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN }, from(HOME))
    expect(mine.body.code).toBe(Code.OK)
    const signedIn = await api.post('/auth/loginByCode', { email, verifyCode: api.lastCode(email, CodeType.LOGIN) }, from(HOME))
    expect(signedIn.body.code).toBe(Code.OK)
    // Their phone elsewhere too.
    api.clock.advance(61_000)
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN }, from('198.51.100.203', DEVICE))).body.code).toBe(Code.OK)
  })
})

describe('known places', () => {
  it('are remembered by sign-in, as a device digest and an address key; the device id itself is never stored or logged', async () => {
    const email = await person()
    const user = await api.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    const places = (await api.db.selectFrom('sign_in_places').select('place').where('user_id', '=', user.id).execute()).map((p) => p.place)
    expect(places).toHaveLength(2)
    expect(places).toEqual(expect.arrayContaining([`a:${HOME}`, expect.stringMatching(/^d:[A-Za-z0-9_-]{43}$/)]))
    expect(places.join(' ')).not.toContain(DEVICE)
    expect(api.logs.join('\n')).not.toContain(DEVICE)
  })
})
