import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Code } from '#contract/envelope'
import { Refusals } from '#contract/refusals'
import { hashToken } from '../../api/lib/tokens'
import { seedUser, startTestApi, type TestApi } from '../support/api'

/**
 * The production scrypt cost (the rest of the suite uses a cheap one): what is stored, and that
 * no answer skips the slow hash.
 */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi({ realHashing: true })
})
afterAll(async () => {
  await api?.close()
})

const email = 'hashing@example.com'
const password = 'plum kettle orbit'
let token: string

describe('stored secrets', () => {
  beforeAll(async () => {
    token = (await seedUser(api, { email, password })).token
    await api.post('/auth/sendEmailCode', { email: 'coded@example.com' })
  })

  test('the password is a scrypt N=2^17 r=8 p=1 string, salted', async () => {
    const row = await api.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()
    expect(row.password_hash).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(row.password_hash).not.toContain(password)
  })

  test('the e-mail code is kept only as a scrypt hash', async () => {
    const code = api.lastCode('coded@example.com', 1)
    const rows = await api.db.selectFrom('email_codes').selectAll().where('email', '=', 'coded@example.com').execute()
    expect(rows).toHaveLength(1)
    expect(rows[0].code_hash).toMatch(/^scrypt\$17\$/)
    expect(JSON.stringify(rows)).not.toContain(code)
  })

  test('the token is kept only as its sha256', async () => {
    expect((await api.get('/v1/user/index', { token })).body.code).toBe(Code.OK)
    const rows = await api.db.selectFrom('sessions').selectAll().execute()
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token))
    expect(JSON.stringify(rows)).not.toContain(token)
  })
})

describe('similar timing whether or not the account exists', () => {
  const time = async (body: object) => {
    const t = performance.now()
    const res = await api.post('/auth/login', body)
    expect(res.body.code).toBe(Refusals.BAD_CREDENTIALS.code)
    return performance.now() - t
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]

  test('an unknown address takes about as long as a wrong password', async () => {
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 3; i++) {
      known.push(await time({ email, password: `wrong password ${i}` }))
      unknown.push(await time({ email: `ghost${i}@example.com`, password: `wrong password ${i}` }))
    }
    // Loose bounds (a shared 2-core machine): what matters is that no branch skips the hash.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4)
    expect(median(known)).toBeGreaterThan(median(unknown) * 0.4)
  })
})
