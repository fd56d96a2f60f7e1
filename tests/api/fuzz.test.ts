import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { seedUser, startTestApi, type TestApi } from '../support/api'

/**
 * Property: no input makes any endpoint answer 5xx (DESIGN §4), and every answer is an envelope.
 * Bodies range from random JSON to nearly valid ones that reach the database and the hashing.
 */

let api: TestApi
let liveToken: string
beforeAll(async () => {
  api = await startTestApi()
  liveToken = (await seedUser(api, { email: 'fuzz@example.com', password: 'fuzzy password 1' })).token
})
afterAll(async () => {
  await api?.close()
})

const POSTS = [
  '/auth/login',
  '/auth/register',
  '/auth/sendEmailCode',
  '/auth/checkEmailCode',
  '/auth/resetPassword',
  '/auth/loginByCode',
  '/auth/google',
  '/auth/googleNew',
  '/auth/logout',
  '/v1/user/setInfo',
  '/v1/order/sell',
  '/v1/order/cancel',
  '/v1/order/accept',
  '/v1/order/decline',
  '/v1/file/upload',
  '/v1/analytics/event',
  '/v1/user/getTaskReward',
  '/v1/user/readMessage',
  '/v1/user/delAccount',
  '/v1/user/bindAccount',
  '/v1/bankCard/resolve',
  '/v1/webhooks/paystack',
] as const

const FIELDS = [
  'email',
  'password',
  'verifyCode',
  'type',
  'id_token',
  'userName',
  'headImg',
  '__proto__',
  'constructor',
  'brandId',
  'country',
  'cardType',
  'cards',
  'quotedRate',
  'requestId',
  'id',
  'name',
  'taskId',
  'all',
  'provider',
]

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
const value = fc.oneof(
  text,
  fc.emailAddress(),
  fc.constantFrom('fuzz@example.com', 'FUZZ@example.com ', 'password1', 'fuzzy password 1', 'https://x.example/a.png'),
  fc.constantFrom('apple', 'steam', 'US', 'GB', 'ecode', 'physical', '1180.00', 'first_successful_order', 'req-0123456789'),
  fc.constant([{ faceValue: 10_000, cardCodes: ['ABCDEFGH1234'] }]),
  fc.array(
    fc.record(
      {
        faceValue: fc.integer({ min: -10, max: 100_000 }),
        cardCodes: fc.array(text, { maxLength: 3 }),
        imageIds: fc.array(fc.uuid(), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 3 },
  ),
  fc.stringMatching(/^\d{6}$/),
  fc.integer({ min: -10, max: 10 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
)
const nearlyValid = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 })
const body = fc.oneof(nearlyValid, fc.jsonValue({ maxDepth: 4 }), fc.object({ maxDepth: 2 }))
const tokenHeader = fc.oneof(fc.constant(undefined), fc.constant('LIVE'), fc.stringMatching(/^[\x21-\x7e]{0,80}$/))

const isEnvelope = (b: unknown) =>
  typeof b === 'object' &&
  b !== null &&
  typeof (b as { code: unknown }).code === 'number' &&
  typeof (b as { msg: unknown }).msg === 'string'

test('random JSON bodies to every POST endpoint never answer 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...POSTS), body, tokenHeader, async (path, payload, token) => {
      const res = await api.post(path, payload, { token: token === 'LIVE' ? liveToken : token })
      expect(res.status, `${path} ${res.text}`).toBeLessThan(500)
      expect(isEnvelope(res.body)).toBe(true)
      // HTTP 200 answers are success or a business refusal; everything else mirrors the status.
      if (res.status !== 200) expect(res.body.code).toBe(res.status)
    }),
    { numRuns: 400 },
  )
})

test('random raw bodies and content types never answer 5xx', async () => {
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/vnd.api+json',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
  )
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...POSTS), fc.string({ unit: 'binary', maxLength: 200 }), contentType, async (path, raw, type) => {
      const res = await api.post(path, undefined, { raw, headers: { 'content-type': type } })
      expect(res.status, `${path} ${type} ${res.text}`).toBeLessThan(500)
      expect(isEnvelope(res.body)).toBe(true)
    }),
    { numRuns: 200 },
  )
})

test('random query strings on GET endpoints never answer 5xx', async () => {
  const query = fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })), { maxLength: 4 })
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(
        '/v1/user/index',
        '/healthz',
        '/nope',
        '/v1/giftcard/rates',
        '/v1/giftcard/quote',
        '/v1/order/page',
        '/v1/order/detail',
        '/v1/file/get',
      ),
      query,
      tokenHeader,
      async (path, pairs, token) => {
        const qs = new URLSearchParams(pairs).toString()
        const res = await api.get(qs ? `${path}?${qs}` : path, { token: token === 'LIVE' ? liveToken : token })
        expect(res.status).toBeLessThan(500)
        expect(isEnvelope(res.body)).toBe(true)
      },
    ),
    { numRuns: 100 },
  )
})
