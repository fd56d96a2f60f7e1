import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as editProfile from '~/routes/edit-profile'
import * as forgot from '~/routes/forgot-password'
import * as login from '~/routes/login'
import * as register from '~/routes/register'
import { registerUser, startTestApi, type TestApi } from '../support/api'
import { call, signedInJar, type CookieJar } from '../support/web'

/**
 * Field names that walk into an object's prototype, in a conform intent or as a field of their
 * own, are bad input for every form (the shared parse, app/utils/form-parse.server.ts): a 400
 * with the form's sentence, never a 500, and no polluted Object.prototype afterwards.
 */
let api: TestApi
let signedIn: CookieJar

beforeAll(async () => {
  api = await startTestApi()
  process.env.API_BASE_URL = api.url
  signedIn = await signedInJar(await registerUser(api, `proto.${Date.now()}@example.com`))
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

const intent = (type: string, payload: Record<string, unknown>) => `__intent__=${encodeURIComponent(JSON.stringify({ type, payload }))}`

const HOSTILE = [
  intent('insert', { name: '__proto__' }),
  intent('insert', { name: 'constructor.prototype' }),
  intent('update', { name: '__proto__.polluted', value: 'yes' }),
  intent('remove', { name: 'constructor', index: 0 }),
  intent('reset', { name: 'prototype' }),
  '__proto__.polluted=yes',
  'constructor.prototype.polluted=yes',
  'email[__proto__]=x',
]

function rawPost(path: string, body: string, jar?: CookieJar) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const cookie = jar?.header()
  if (cookie) headers.Cookie = cookie
  return new Request(`http://localhost:3000${path}`, { method: 'POST', headers, body })
}

describe('a field name that reaches a prototype', () => {
  for (const [path, action, needsSession] of actions) {
    it(`${path}: 400 "This form could not be read", for the intent and for plain fields`, async () => {
      for (const hostile of HOSTILE) {
        const response = await call(action, rawPost(path, `intent=password&email=a%40b.co&${hostile}`, needsSession ? signedIn : undefined))
        expect(response.status, hostile).toBe(400)
        expect(await response.json(), hostile).toEqual({ message: 'This form could not be read. Please reload the page and try again.' })
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  }

  it('the same names in multipart are refused the same way', async () => {
    const form = new FormData()
    form.append('email', 'a@b.co')
    form.append('__intent__', JSON.stringify({ type: 'insert', payload: { name: '__proto__' } }))
    const response = await call(login.action, new Request('http://localhost:3000/login', { method: 'POST', body: form }))
    expect(response.status).toBe(400)
  })

  it('an ordinary intent is still answered by the schema', async () => {
    const response = await call(login.action, rawPost('/login', `intent=password&email=nope&${intent('validate', { name: 'email' })}`))
    expect(response.status).toBe(400)
    expect((await response.json()).result.error.email).toBeTruthy()
  })
})
