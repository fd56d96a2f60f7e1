import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as editProfile from '~/routes/edit-profile'
import * as forgot from '~/routes/forgot-password'
import * as login from '~/routes/login'
import * as register from '~/routes/register'
import { commitSession, getSession } from '~/utils/session.server'
import { registerUser, startTestApi, type TestApi } from '../support/api'
import { CookieJar, call, makeRequest } from '../support/web'

/**
 * Bad input gets a clear message and changes nothing; no action answers 500 to anything a
 * browser (or a script pretending to be one) can send.
 */
let api: TestApi
let signedIn: CookieJar

beforeAll(async () => {
  api = await startTestApi()
  process.env.API_BASE_URL = api.url
  const token = await registerUser(api, `bad.input.${Date.now()}@example.com`)
  signedIn = new CookieJar()
  const session = await getSession(makeRequest('/'))
  session.set('token', token)
  signedIn.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))
})
afterAll(async () => {
  await api?.close()
})

const actions = [
  ['/login', login.action, false],
  ['/register', register.action, false],
  ['/forgot-password', forgot.action, false],
  ['/edit-profile', editProfile.action, true],
] as const

const fieldNames = fc.constantFrom('intent', 'email', 'password', 'verifyCode', 'userName', 'redirectTo', 'step', 'type', '__proto__', 'x')
const intents = fc.constantFrom('password', 'code', 'send-code', 'register', 'reset', '', 'nonsense')
const values = fc.oneof(fc.string({ maxLength: 300 }), fc.emailAddress(), fc.stringMatching(/^\d{0,8}$/), intents, fc.constant('x'.repeat(5000)))

describe('random forms never break an action', () => {
  for (const [path, action, needsSession] of actions) {
    it(`${path}: 400 with messages or a redirect, never a throw or a 5xx`, async () => {
      const usersBefore = await api.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fieldNames, values, { maxKeys: 6 }), async (form) => {
          const jar = needsSession ? signedIn : new CookieJar()
          const response = await call(action, makeRequest(path, { form: form as Record<string, string>, jar }))
          expect(response.status).toBeLessThan(500)
          if (response.status === 400) {
            const data = await response.json()
            expect(data.result).toBeTruthy()
            // What was typed comes back, but never a password or a code.
            for (const secret of ['password', 'verifyCode']) expect(data.result.initialValue?.[secret]).toBeUndefined()
          }
        }),
        { numRuns: 40 },
      )
      // Random input created no account.
      const usersAfter = await api.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
      expect(Number(usersAfter.n)).toBe(Number(usersBefore.n))
    })
  }
})

describe('bodies that are not forms', () => {
  for (const [path, action, needsSession] of actions) {
    it(`${path}: JSON, plain text and an empty body get a 400, not a 500`, async () => {
      for (const [type, body] of [
        ['application/json', '{"email":"a@b.co","password":"x"}'],
        ['text/plain', 'hello'],
        ['application/x-www-form-urlencoded', ''],
        ['application/x-www-form-urlencoded', '%%%=%zz&email=%E0%A4%A'],
      ]) {
        const headers: Record<string, string> = { 'Content-Type': type }
        const cookie = needsSession ? signedIn.header() : ''
        if (cookie) headers.Cookie = cookie
        const request = new Request(`http://localhost:3000${path}`, { method: 'POST', headers, body })
        const response = await call(action, request)
        expect(response.status, `${type} ${body}`).toBeLessThan(500)
      }
    })
  }
})
