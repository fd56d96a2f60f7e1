import { afterAll, beforeAll, expect, test } from 'vitest'
import { CodeType } from '#contract/accounts'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { startFakeGoogle, startTestApi, type FakeGoogle, type TestApi } from '../support/api'

/** Secrets (tokens, codes, passwords, id_tokens) never appear in the logs (DESIGN §4). */

let api: TestApi
let google: FakeGoogle
beforeAll(async () => {
  google = await startFakeGoogle()
  api = await startTestApi({ logLevel: 'trace', config: { googleJwksUrl: google.jwksUrl } })
})
afterAll(async () => {
  await api?.close()
  await google?.close()
})

test('a full round of sign-up, sign-in, codes, reset, Google and failures logs none of its secrets', async () => {
  const secrets: string[] = []
  const keep = <T extends string>(s: T) => (secrets.push(s), s)
  const email = 'secretive@example.com'
  const password = keep('unguessable sentence 77')
  const newPassword = keep('another unguessable 88')

  await api.post('/auth/sendEmailCode', { email })
  const registerCode = keep(api.lastCode(email, CodeType.REGISTER))
  await api.post('/auth/checkEmailCode', { email, type: 1, verifyCode: '000000' })
  const token = keep((await api.post<string>('/auth/register', { email, password, verifyCode: registerCode })).body.data)
  await api.get('/v1/user/index', { token })
  await api.post('/auth/login', { email, password: keep('a wrong password 99') })
  const token2 = keep((await api.post<string>('/auth/login', { email, password })).body.data)

  await api.post('/auth/sendEmailCode', { email, type: CodeType.LOGIN })
  const loginCode = keep(api.lastCode(email, CodeType.LOGIN))
  keep((await api.post<string>('/auth/loginByCode', { email, verifyCode: loginCode })).body.data)
  await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PASSWORD })
  const resetCode = keep(api.lastCode(email, CodeType.RESET_PASSWORD))
  expect((await api.post('/auth/resetPassword', { email, password: newPassword, verifyCode: resetCode })).body.code).toBe(Code.OK)

  const idToken = keep(await google.idToken({ email: 'g@gmail.com' }, { now: api.clock.now() }))
  keep((await api.post<{ token: string }>('/auth/googleNew', { id_token: idToken })).body.data.token)
  const badIdToken = keep(await google.idToken({ aud: 'wrong' }, { now: api.clock.now() }))
  expect((await api.post('/auth/google', { id_token: badIdToken })).body.code).toBe(Refusals.BAD_ID_TOKEN.code)
  await api.post('/auth/logout', {}, { token: token2 })
  await api.post('/auth/login', { email: 'x', password }) // a 400 that echoes nothing
  await api.post('/auth/login', undefined, { raw: `{"password":"${password}",`, headers: { 'content-type': 'application/json' } })

  const log = api.logs.join('\n')
  expect(api.logs.length).toBeGreaterThan(15) // the requests were logged…
  expect(log).toContain('/auth/register')
  expect(log).toContain('google id_token refused')
  for (const s of secrets) expect(log, `a secret in the logs: ${s.slice(0, 12)}…`).not.toContain(s)
  // …and so were no hashes.
  expect(log).not.toContain('scrypt$')
})
