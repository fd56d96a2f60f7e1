import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { CodeType } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { seedUser, startTestApi, type TestApi } from '../support/api'

/**
 * E-mail verification codes (SPEC §7 sendEmailCode/checkEmailCode, DESIGN §3 types 1–5):
 * 6 digits, 10 minutes, single use, bound to e-mail+type, newest only, 5 tries, one a minute,
 * and the same answer whether or not an account exists.
 */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
})
afterAll(async () => {
  await api?.close()
})

const OK = { code: Code.OK, msg: 'success', data: null }
const BAD_CODE = { code: Refusals.BAD_VERIFY_CODE.code, msg: 'The verification code is wrong or has expired', data: null }
const TOO_SOON = { code: Refusals.CODE_TOO_SOON.code, msg: 'Please wait a minute before asking for another code', data: null }

let n = 0
/** A fresh address per test, so the once-a-minute rule of one test does not touch another. */
const fresh = (label: string) => `${label}.${++n}@example.com`

const send = (email: string, type?: number, token?: string) =>
  api.post('/auth/sendEmailCode', type === undefined ? { email } : { email, type }, { token })
const check = (email: string, type: number, verifyCode: string, token?: string) =>
  api.post('/auth/checkEmailCode', { email, type, verifyCode }, { token })
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe('sending', () => {
  test('type defaults to 1 (register); the mail says what the code is for and that it expires in 10 minutes', async () => {
    const email = fresh('Mixed.Case')
    const before = api.mails.length
    expect((await send(email.toUpperCase())).body).toEqual(OK)
    expect(api.mails).toHaveLength(before + 1)
    const mail = api.mails.at(-1)!
    expect(mail.to).toBe(email.toLowerCase())
    expect(mail.codeType).toBe(CodeType.REGISTER)
    expect(mail.text).toMatch(/\b\d{6}\b/)
    expect(mail.text).toContain('create your account')
    expect(mail.text).toContain('expires in 10 minutes')
    expect(mail.subject).toContain('Cardlane')
    expect(mail.subject).not.toMatch(/\d{6}/) // not in notification previews
  })

  test.each([
    [CodeType.RESET_PASSWORD, 'reset your password'],
    [CodeType.LOGIN, 'sign in'],
  ])('type %i to an account mails a code "to %s"', async (type, purpose) => {
    const email = fresh('acct')
    await seedUser(api, { email })
    expect((await send(email, type)).body).toEqual(OK)
    expect(api.mails.at(-1)).toMatchObject({ to: email, codeType: type })
    expect(api.mails.at(-1)!.text).toContain(purpose)
  })

  test('codes are six digits and new each time', async () => {
    const codes = new Set<string>()
    for (let i = 0; i < 12; i++) {
      const email = fresh('digits')
      await send(email)
      codes.add(api.lastCode(email))
    }
    for (const c of codes) expect(c).toMatch(/^\d{6}$/)
    expect(codes.size).toBeGreaterThan(10)
  })

  test('one send a minute per address and type; another type or address is not held up', async () => {
    const email = fresh('minute')
    await seedUser(api, { email })
    expect((await send(email, CodeType.RESET_PASSWORD)).body).toEqual(OK)
    api.clock.advance(59_000)
    const again = await send(email, CodeType.RESET_PASSWORD)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(TOO_SOON)
    expect((await send(email, CodeType.LOGIN)).body).toEqual(OK)
    expect((await send(fresh('other'), CodeType.RESET_PASSWORD)).body).toEqual(OK)
    api.clock.advance(1_000)
    expect((await send(email, CodeType.RESET_PASSWORD)).body).toEqual(OK)
  })

  test('at most 10 codes a day per address and type, for accounts and strangers alike', async () => {
    const known = fresh('daily')
    await seedUser(api, { email: known })
    const unknown = fresh('daily-ghost')
    for (const email of [known, unknown]) {
      for (let i = 0; i < 10; i++) {
        expect((await send(email, CodeType.LOGIN)).body, `send ${i + 1}`).toEqual(OK)
        api.clock.advance(60_000)
      }
    }
    const limit = {
      code: Refusals.CODE_LIMIT_REACHED.code,
      msg: 'Too many codes were asked for this e-mail today. Try again tomorrow',
      data: null,
    }
    expect((await send(known, CodeType.LOGIN)).body).toEqual(limit)
    expect((await send(unknown, CodeType.LOGIN)).body).toEqual(limit)
    expect((await send(known, CodeType.RESET_PASSWORD)).body).toEqual(OK)
    api.clock.advance(86_400_000)
    expect((await send(known, CodeType.LOGIN)).body).toEqual(OK)
  })
})

describe("the daily cap costs the requester, not the address's owner", () => {
  const sendFrom = (requester: string, email: string, type: number) =>
    api.post('/auth/sendEmailCode', { email, type }, { headers: { 'x-forwarded-for': requester } })
  const LIMIT = {
    code: Refusals.CODE_LIMIT_REACHED.code,
    msg: 'Too many codes were asked for this e-mail today. Try again tomorrow',
    data: null,
  }

  test("ten asks for someone else's address leave its owner their own ten; thirty from anyone is the ceiling", async () => {
    const owner = fresh('owner-of-address')
    await seedUser(api, { email: owner })
    const ask = async (requester: string) => {
      const res = await sendFrom(requester, owner, CodeType.LOGIN)
      api.clock.advance(1_000)
      return res.body
    }
    // An attacker (one IPv6 /64, rotating inside it) spends a day's ten in ten minutes.
    for (let i = 0; i < 10; i++) {
      expect(await ask(`2001:db8:bad:1::${i + 1}`), `ask ${i + 1}`).toEqual(OK)
      api.clock.advance(59_000)
    }
    expect(await ask('2001:db8:bad:1::99')).toEqual(LIMIT)
    // The owner, from their own connection, at once: not "wait a minute", not "try tomorrow".
    expect(await ask('198.51.100.7')).toEqual(OK)
    expect(api.lastCode(owner, CodeType.LOGIN)).toMatch(/^\d{6}$/)
    // Two more attackers' allowances (19 more codes) reach the ceiling of 30 for the address…
    for (const prefix of ['2001:db8:bad:2::', '2001:db8:bad:3::']) {
      for (let i = 0; i < 10; i++) {
        const body = await ask(`${prefix}1`)
        api.clock.advance(59_000)
        if (body.code !== Code.OK) {
          expect(body).toEqual(LIMIT)
          break
        }
      }
    }
    expect(api.mails.filter((m) => m.to === owner)).toHaveLength(30)
    // …and past it nobody gets one today, which bounds the mail to an inbox and the guesses at it.
    expect(await ask('203.0.113.50')).toEqual(LIMIT)
    expect(await ask('198.51.100.7')).toEqual(LIMIT)
    api.clock.advance(86_400_000)
    expect(await ask('198.51.100.7')).toEqual(OK)
  })

  test("another requester's ask does not make the owner wait a minute", async () => {
    const owner = fresh('no-wait')
    await seedUser(api, { email: owner })
    expect((await sendFrom('203.0.113.60', owner, CodeType.RESET_PASSWORD)).body).toEqual(OK)
    expect((await sendFrom('198.51.100.8', owner, CodeType.RESET_PASSWORD)).body).toEqual(OK)
    expect((await sendFrom('198.51.100.8', owner, CodeType.RESET_PASSWORD)).body).toEqual(TOO_SOON)
  })
})

describe('the same answer whether or not an account exists', () => {
  test.each([CodeType.RESET_PASSWORD, CodeType.LOGIN])('type %i: no account, no mail, same answer', async (type) => {
    const known = fresh('known')
    await seedUser(api, { email: known })
    const unknown = fresh('unknown')
    const before = api.mails.length
    const a = await send(known, type)
    const b = await send(unknown, type)
    expect(b.status).toBe(a.status)
    expect(b.body).toEqual(a.body)
    expect(api.mails.slice(before).map((m) => m.to)).toEqual([known])
    // …and the once-a-minute rule holds for both alike.
    expect((await send(known, type)).body).toEqual(TOO_SOON)
    expect((await send(unknown, type)).body).toEqual(TOO_SOON)
  })

  test('type 1 to an existing account mails a note, not a code', async () => {
    const email = fresh('registered')
    await seedUser(api, { email })
    expect((await send(email)).body).toEqual(OK)
    const note = api.mails.at(-1)!
    expect(note.to).toBe(email)
    expect(note.codeType).toBeUndefined()
    expect(note.subject).toContain('already have')
    expect(note.text).not.toMatch(/\b\d{6}\b/)
    expect(() => api.lastCode(email)).toThrow()
  })

  test('checking a code for an unknown account answers like a wrong code', async () => {
    expect((await check(fresh('ghost'), CodeType.RESET_PASSWORD, '123456')).body).toEqual(BAD_CODE)
  })
})

describe('checking and using', () => {
  let email: string
  let code: string
  beforeEach(async () => {
    email = fresh('check')
    await send(email)
    code = api.lastCode(email, CodeType.REGISTER)
  })

  test('checkEmailCode confirms without consuming: the same code then registers', async () => {
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
    const reg = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: code })
    expect(reg.body.code).toBe(Code.OK)
  })

  test('single use: once used for register it checks and works no more', async () => {
    const reg = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: code })
    expect(reg.body.code).toBe(Code.OK)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
  })

  test('valid for 10 minutes: 9:59 still works, 10:00 does not', async () => {
    api.clock.advance(10 * 60_000 - 1_000)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
    api.clock.advance(1_000)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
    const reg = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: code })
    expect(reg.body).toEqual(BAD_CODE)
  })

  test('bound to its e-mail and type', async () => {
    expect((await check(email, CodeType.RESET_PASSWORD, code)).body).toEqual(BAD_CODE)
    expect((await check(fresh('elsewhere'), CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
  })

  test('a new code voids the older one', async () => {
    api.clock.advance(60_000)
    await send(email)
    const newer = api.lastCode(email)
    if (newer !== code) expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
    expect((await check(email, CodeType.REGISTER, newer)).body).toEqual(OK)
  })

  test('4 wrong tries leave the code working; right checks give their try back', async () => {
    for (let i = 0; i < 4; i++) expect((await check(email, CodeType.REGISTER, wrong(code))).body).toEqual(BAD_CODE)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(OK)
    const reg = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: code })
    expect(reg.body.code).toBe(Code.OK)
  })

  test('the 5th wrong try burns the code, also for the real action', async () => {
    for (let i = 0; i < 5; i++) expect((await check(email, CodeType.REGISTER, wrong(code))).body).toEqual(BAD_CODE)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
    const reg = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: code })
    expect(reg.body).toEqual(BAD_CODE)
  })

  test('wrong tries on register count too', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/auth/register', { email, password: 'river stone nine', verifyCode: wrong(code) })
      expect(res.body).toEqual(BAD_CODE)
    }
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
  })

  test('parallel guesses cannot exceed 5 tries', async () => {
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))
    await Promise.all(guesses.map((g) => check(email, CodeType.REGISTER, g)))
    const row = await api.db.selectFrom('email_codes').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    expect(row.attempts).toBe(5)
    expect((await check(email, CodeType.REGISTER, code)).body).toEqual(BAD_CODE)
  })

  test('a used code is used once even when two requests race', async () => {
    const body = { email, password: 'river stone nine', verifyCode: code }
    const [a, b] = await Promise.all([api.post('/auth/register', body), api.post('/auth/register', body)])
    expect([a.body.code, b.body.code].sort()).toEqual([Code.OK, Refusals.BAD_VERIFY_CODE.code].sort())
  })
})

describe('types 4 and 5 belong to the signed-in user', () => {
  test.each([CodeType.RESET_PIN, CodeType.DELETE_ACCOUNT])('type %i without a token is 401', async (type) => {
    const res = await send(fresh('anon'), type)
    expect(res.status).toBe(401)
    expect(res.body.code).toBe(Code.UNAUTHORIZED)
    expect((await check(fresh('anon'), type, '123456')).status).toBe(401)
  })

  test.each([CodeType.RESET_PIN, CodeType.DELETE_ACCOUNT])('type %i goes to the account address, whatever the body says', async (type) => {
    const email = fresh('owner')
    const { token } = await seedUser(api, { email })
    const res = await send('someone.else@example.com', type, token)
    expect(res.body).toEqual(OK)
    expect(api.mails.at(-1)).toMatchObject({ to: email, codeType: type })
    const code = api.lastCode(email, type)
    expect((await check('whatever@example.com', type, code, token)).body).toEqual(OK)
    expect(() => api.lastCode('someone.else@example.com')).toThrow()
  })
})
