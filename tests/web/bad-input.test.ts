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
const values = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.emailAddress(),
  fc.stringMatching(/^\d{0,8}$/),
  intents,
  fc.constant('x'.repeat(5000)),
)

describe('random forms never break an action', () => {
  for (const [path, action, needsSession] of actions) {
    it(`${path}: 400 with messages or a redirect, never a throw or a 5xx`, async () => {
      const usersBefore = await api.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fieldNames, values, { maxKeys: 6 }), async (form) => {
          const jar = needsSession ? signedIn : new CookieJar()
          const response = await call(action, makeRequest(path, { form: form as Record<string, string>, jar }))
          expect(response.status).toBeLessThan(500)
          if (response.status === 400) {
            const data = await response.json()
            // A name that reaches a prototype (`__proto__`) is refused before conform sees the form.
            if (Object.hasOwn(form, '__proto__'))
              expect(data.message).toBe('This form could not be read. Please reload the page and try again.')
            else expect(data.result).toBeTruthy()
            // What was typed comes back, but never a password or a code.
            for (const secret of ['password', 'verifyCode']) expect(data.result?.initialValue?.[secret]).toBeUndefined()
          }
        }),
        { numRuns: 40 },
      )
      // Random input created no account.
      const usersAfter = await api.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
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

/** A urlencoded body exactly as given (URLSearchParams would escape the brackets we mean to send). */
function rawPost(path: string, body: string, jar?: CookieJar) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const cookie = jar?.header()
  if (cookie) headers.Cookie = cookie
  return new Request(`http://localhost:3000${path}`, { method: 'POST', headers, body })
}

describe('hostile forms are refused before the form library expands them', () => {
  for (const [path, action, needsSession] of actions) {
    it(`${path}: a 15-byte list index (x[99999999]=1) is a 400 with a sentence, not a 100-million-element array`, async () => {
      const response = await call(action, rawPost(path, 'x[99999999]=1', needsSession ? signedIn : undefined))
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: 'This form could not be read. Please reload the page and try again.' })
    })
  }

  it('x[1000000] no longer sends 5 MB back; deep paths and over-long names are refused too', async () => {
    for (const body of ['x[1000000]=1', 'email=a%40b.co&x[1000000]=1', 'a.b.c.d.e=1', `${'n'.repeat(101)}=1`, 'x[1][2][3][4]=1']) {
      const response = await call(login.action, rawPost('/login', body))
      const text = await response.text()
      expect(response.status, body).toBe(400)
      expect(text.length, body).toBeLessThan(200)
    }
  })

  it('short lists and flat names still reach the schema (field messages, not a refusal)', async () => {
    const response = await call(login.action, rawPost('/login', 'intent=password&email=nope&x[3]=1&a.b=2'))
    expect(response.status).toBe(400)
    expect((await response.json()).result.error.email).toBeTruthy()
  })

  it('80 000 repeated empty fields (234 kB) are a 413 with a sentence: the parse is linear and capped', async () => {
    const body = 'a=&'.repeat(80_000)
    const response = await call(login.action, rawPost('/login', body))
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ message: 'That was more than this form can take. Please try again with less.' })
  })

  it('readForm holds a plain form to 256 kB itself, on a route whose streamed upload limit is larger', async () => {
    const response = await call(login.action, rawPost('/login', `email=${'a'.repeat(300 * 1024)}`))
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ message: 'That was more than this form can take. Please try again with less.' })
  })

  it("conform's reserved fields with a malformed value are a 400, never a 500", async () => {
    for (const body of [
      '__intent__=not-json',
      '__intent__=%7B%7D',
      '__intent__=%22x%22',
      '__state__=%7Bbroken',
      '__state__=null',
      `__intent__=${encodeURIComponent(JSON.stringify({ type: 'update', payload: { name: 'x[99999999]', value: '1' } }))}`,
      `__intent__=${encodeURIComponent(JSON.stringify({ type: 'insert', payload: { name: 'x', index: 99999999 } }))}`,
    ]) {
      const response = await call(login.action, rawPost('/login', `intent=password&email=a%40b.co&${body}`))
      expect(response.status, body).toBe(400)
    }
    // A well-formed intent (what conform's own buttons send) is still answered by the schema.
    const validate = encodeURIComponent(JSON.stringify({ type: 'validate', payload: { name: 'email' } }))
    const response = await call(login.action, rawPost('/login', `intent=password&email=nope&__intent__=${validate}`))
    expect(response.status).toBe(400)
    expect((await response.json()).result).toBeTruthy()
  })
})

describe('redirect targets a Location header cannot hold fall back to a safe one', () => {
  it('/login: redirectTo with a Unicode space or full-width slashes signs in and goes home, never a 500', async () => {
    const email = `bad.redirect.${Date.now()}@example.com`
    const password = 'a fine passphrase 42'
    await registerUser(api, email, password)
    for (const redirectTo of ['/\u3000/x', '/\uFF0F\uFF0Fx', '/\uFF0F\uFF0Fevil.example', '/caf\u00e9']) {
      const response = await call(login.action, makeRequest('/login', { form: { intent: 'password', email, password, redirectTo } }))
      expect(response.status, redirectTo).toBe(302)
      expect(response.headers.get('Location'), redirectTo).toBe('/')
    }
    const page = await call(login.loader, makeRequest(`/login?redirectTo=${encodeURIComponent('/\u3000/x')}`))
    expect((await page.json()).redirectTo).toBe('')
  })
})
