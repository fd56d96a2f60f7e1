import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as upload from '~/routes/file.upload'
import * as detail from '~/routes/order.$id'
import * as sell from '~/routes/order.sell/route'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { sold, useSellingApi } from '../support/selling'
import { call, CookieJar, makeRequest, signedInJar } from '../support/web'

/**
 * Bad input on the selling screens gets a clear message and changes nothing; no action answers
 * 500 to anything a browser (or a script pretending to be one) can send, and a code typed into a
 * form never comes back in the answer.
 */
const api = useSellingApi({ web: true })

const count = async () =>
  Number(
    (
      await api.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

const fieldNames = fc.constantFrom(
  'intent',
  'brandId',
  'country',
  'cardType',
  'quotedRate',
  'requestId',
  'cards[0].faceValue',
  'cards[0].code',
  'cards[0].pin',
  'cards[0].imageIds',
  'cards[1].faceValue',
  'cards[1].code',
  'cards[9].faceValue',
  'cards',
  'id',
  '__proto__',
)
const values = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('sell', 'check', 'add', 'remove:0', 'remove:99', 'remove-photo:cards[0]:x', 'cancel', 'accept', 'decline', ''),
  fc.constantFrom('apple', 'steam', 'nope', 'US', 'ecode', 'physical', '1180.00', '-1', '1e9', '00000000-0000-0000-0000-000000000000'),
  fc.stringMatching(/^[\d.,]{0,12}$/),
  fc.constant('x'.repeat(5000)),
)
/** A code of ours marked so it can be looked for in the answer. */
const SECRET = 'SECRETCODE12345678'

describe('random forms never break a selling action, and never echo a code', () => {
  it('/order/sell, signed in and not: 4xx with messages or a redirect, never a throw or a 5xx', async () => {
    const { token } = await seedUser(api, { email: newEmail('random') })
    const jars = [await signedInJar(token), new CookieJar()]
    const before = await count()
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fieldNames, values, { maxKeys: 7 }), fc.boolean(), async (form, signedIn) => {
        const fields = { ...(form as Record<string, string>), 'cards[0].code': SECRET }
        const response = await call(sell.action, makeRequest('/order/sell', { form: fields, jar: jars[signedIn ? 0 : 1] }))
        expect(response.status).toBeLessThan(500)
        const text = await response.text()
        expect(text).not.toContain(SECRET)
        expect(response.headers.get('Location') ?? '').not.toContain(SECRET)
      }),
      { numRuns: 60 },
    )
    expect(await count()).toBe(before)
  })

  it('/order/:id, on the person’s own order and another’s: never a 5xx, and the order stays as it was', async () => {
    const owner = await seedUser(api, { email: newEmail('owner') })
    const order = await sold(api, owner.token)
    const jars = [await signedInJar(owner.token), await signedInJar((await seedUser(api, { email: newEmail('other') })).token)]
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('intent', 'id', 'x'), values, { maxKeys: 3 }), fc.nat(1), async (form, who) => {
        const intent = (form as Record<string, string>).intent
        if (intent === 'cancel' && who === 0) return // the one move that is allowed
        const response = await call(
          detail.action,
          makeRequest(`/order/${order.id}`, { form: form as Record<string, string>, jar: jars[who] }),
          {
            id: order.id,
          },
        )
        expect(response.status).toBeLessThan(500)
      }),
      { numRuns: 40 },
    )
    expect((await api.get<{ status: string }>(`/v1/order/detail?id=${order.id}`, { token: owner.token })).body.data.status).toBe('pending')
  })
})

describe('bodies that are not forms', () => {
  it('JSON, plain text, broken encodings and hostile list indices get a 4xx, not a 5xx', async () => {
    const { token } = await seedUser(api, { email: newEmail('bodies') })
    const jar = await signedInJar(token)
    for (const [type, body] of [
      ['application/json', '{"brandId":"apple","cards":[{"faceValue":1}]}'],
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', ''],
      ['application/x-www-form-urlencoded', '%%%=%zz&brandId=%E0%A4%A'],
      ['application/x-www-form-urlencoded', 'cards[99999999].code=1'],
      ['application/x-www-form-urlencoded', 'a=&'.repeat(80_000)],
      ['multipart/form-data; boundary=nope', '--nope\r\nbroken'],
      ['multipart/form-data', 'no boundary at all'],
    ]) {
      for (const [path, handler, params] of [
        ['/order/sell', sell.action, {}],
        ['/order/x1', detail.action, { id: 'x1' }],
        ['/file/upload', upload.action, {}],
      ] as const) {
        const request = new Request(`http://localhost:3000${path}`, {
          method: 'POST',
          headers: { 'Content-Type': type, Cookie: jar.header() },
          body,
        })
        const response = await call(handler, request, params)
        expect(response.status, `${path} ${type} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400)
        expect(response.status, `${path} ${type} ${body.slice(0, 40)}`).toBeLessThan(500)
      }
    }
  })
})
