import { describe, expect, it } from 'vitest'
import { formatRate, parseRate, type Rate } from '#contract/catalogue'
import type { Order } from '#contract/orders'
import * as payouts from '~/ops/routes/ops.payouts'
import * as people from '~/ops/routes/ops.people'
import * as person from '~/ops/routes/ops.people_.$userId'
import * as rates from '~/ops/routes/ops.rates'
import * as reviewOrder from '~/ops/routes/ops.review.$orderId'
import * as staffDesk from '~/ops/routes/ops.staff'
import * as deskThread from '~/ops/routes/ops.support_.$id'
import * as start from '~/routes/support_.new'
import { accessMessages } from '~/utils/messages'
import { seedUser } from '../support/api'
import { staffJar } from '../support/console'
import { newEmail } from '../support/kit'
import { sold, useSellingApi } from '../support/selling'
import { walletUser, withdraw } from '../support/wallet'
import { call, ORIGIN, signedInJar, type CookieJar, jsonOf, load, submit } from '../support/web'

/**
 * Every desk form goes through readForm and the desk's zod schema (issue 26 §3): a field missing,
 * too long, sent twice, one no form of the desk sends, or a name that reaches a prototype is
 * answered with a sentence (400), never a 500, and nothing changes.
 */
const api = useSellingApi({ web: true })

const MIN = 100_000_000 // ADJUSTMENT_APPROVAL_MIN's default
const INCOMPLETE = 'This form is incomplete. Reload the page and fill it in again'

/** A form posted as a browser would, its fields in order and repeats kept (what `submit`'s record cannot say). */
function post(handler: unknown, path: string, fields: [string, string][], jar: CookieJar, params?: Record<string, string>) {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Cookie: jar.header() })
  const body = new URLSearchParams(fields).toString()
  return call(handler, new Request(new URL(path, ORIGIN), { method: 'POST', headers, body }), params, jar)
}

/** A 400 whose sentence is `message` (the desk's `error`, the payout desk's `message`, a thrown form refusal's `message`). */
async function refused(res: Response, message: string | RegExp) {
  expect(res.status).toBe(400)
  const body = await jsonOf(res)
  expect(body.error ?? body.message).toMatch(message)
  return body
}

/** A name that reaches Object's prototype: readForm refuses it before any schema sees it. */
const HOSTILE: [string, string] = ['__proto__[role]', 'admin']

describe('/ops/people and /ops/people/:userId', () => {
  it('the adjust form: a field twice, too long, missing, injected or hostile is a sentence; no money moves', async () => {
    const { jar } = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 0, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    const params = { userId: p.userId }
    const { requestId } = await jsonOf(await load(person.loader, path, jar, params))
    const form: [string, string][] = [
      ['intent', 'adjust'],
      ['currency', 'NGN'],
      ['requestId', requestId],
      ['direction', 'credit'],
      ['amount', '15'],
      ['reason', 'Goodwill'],
    ]
    // The amount twice: the second must not ride past the check of the first.
    expect(
      await refused(await post(person.action, path, [...form, ['amount', '9000000']], jar, params), 'This form sends amount once'),
    ).toMatchObject({ form: 'adjust', requestId })
    await refused(await post(person.action, path, [...form.slice(0, 5), ['reason', 'R'.repeat(501)]], jar, params), /^Reason:/)
    await refused(await post(person.action, path, [...form.slice(0, 4), ['reason', 'Goodwill']], jar, params), /^Amount:/)
    await refused(await post(person.action, path, [...form, ['userId', 'someone-else']], jar, params), 'This form does not take userId')
    await refused(
      await post(
        person.action,
        path,
        form.filter(([n]) => n !== 'currency'),
        jar,
        params,
      ),
      INCOMPLETE,
    )
    await refused(
      await post(person.action, path, [['intent', 'refund'], ...form.slice(1)], jar, params),
      'Choose Adjust, Approve or Decline',
    )
    await refused(await post(person.action, path, [...form, HOSTILE], jar, params), accessMessages.formUnreadable)
    expect((await jsonOf(await load(person.loader, path, jar, params))).person.balance).toBe(0)
    expect(await api.db.selectFrom('adjustment_requests').select('id').where('user_id', '=', p.userId).execute()).toEqual([])
    // The form as the page sends it still moves the money.
    expect(await post(person.action, path, form, jar, params)).toHaveRedirect(path)
    expect((await jsonOf(await load(person.loader, path, jar, params))).person.balance).toBe(1_500)
  })

  it('approve and decline: an id twice, too long or missing, or a hostile name decides nothing', async () => {
    const a = await staffJar(api, 'admin')
    const b = await staffJar(api, 'admin')
    const p = await walletUser(api, { balance: 0, card: false, pin: null })
    const path = `/ops/people/${p.userId}`
    const { requestId } = await jsonOf(await load(person.loader, path, a.jar, { userId: p.userId }))
    const ask = { intent: 'adjust', currency: 'NGN', direction: 'credit', amount: String(MIN / 100 + 1), reason: 'Refund', requestId }
    expect(await submit(person.action, path, ask, a.jar, { userId: p.userId })).toHaveRedirect(path)
    const [waiting] = await api.db.selectFrom('adjustment_requests').select('id').where('user_id', '=', p.userId).execute()
    const id = waiting!.id
    expect(
      await refused(
        await post(
          people.action,
          '/ops/people',
          [
            ['intent', 'approve'],
            ['id', id],
            ['id', 'other'],
          ],
          b.jar,
        ),
        'This form sends id once',
      ),
    ).toMatchObject({ form: `decide:${id}` })
    await refused(
      await post(
        people.action,
        '/ops/people',
        [
          ['intent', 'approve'],
          ['id', 'x'.repeat(65)],
        ],
        b.jar,
      ),
      INCOMPLETE,
    )
    await refused(await post(people.action, '/ops/people', [['intent', 'approve']], b.jar), INCOMPLETE)
    await refused(
      await post(
        people.action,
        '/ops/people',
        [
          ['intent', 'approve'],
          ['id', id],
          ['amount', '1'],
        ],
        b.jar,
      ),
      'This form does not take amount',
    )
    await refused(
      await post(
        people.action,
        '/ops/people',
        [
          ['intent', 'apply'],
          ['id', id],
        ],
        b.jar,
      ),
      'Choose Approve or Decline',
    )
    await refused(
      await post(people.action, '/ops/people', [['intent', 'approve'], ['id', id], HOSTILE], b.jar),
      accessMessages.formUnreadable,
    )
    // On the person's page, a decision's refusal is the decision's, not the adjust form's.
    expect(
      await refused(
        await post(
          person.action,
          path,
          [
            ['intent', 'decline'],
            ['id', id],
            ['id', id],
          ],
          b.jar,
          { userId: p.userId },
        ),
        /once/,
      ),
    ).toMatchObject({
      form: `decide:${id}`,
    })
    const row = await api.db.selectFrom('adjustment_requests').select(['status', 'checker']).where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'pending', checker: null })
    expect(
      await post(
        people.action,
        '/ops/people',
        [
          ['intent', 'approve'],
          ['id', id],
        ],
        b.jar,
      ),
    ).toHaveRedirect('/ops/people')
    expect((await jsonOf(await load(person.loader, path, b.jar, { userId: p.userId }))).person.balance).toBe(MIN + 100)
  })
})

describe('/ops/rates', () => {
  const key = { brandId: 'steam', country: 'US', cardType: 'ecode' } as const
  const rateNow = async (jar: CookieJar) =>
    (await jsonOf(await load(rates.loader, '/ops/rates', jar))).rates.find(
      (r: Rate) => r.brandId === key.brandId && r.country === key.country && r.cardType === key.cardType,
    )?.rate as string | undefined

  it('a rate or an ETA twice, too long, missing, injected or hostile is a sentence beside its form; nothing is set', async () => {
    const { jar } = await staffJar(api, 'admin')
    const before = await rateNow(jar)
    expect(before).toBeDefined()
    const near = formatRate(parseRate(before!)! + 1_000_000)
    const form: [string, string][] = [
      ['intent', 'rate'],
      ['brandId', key.brandId],
      ['country', key.country],
      ['cardType', key.cardType],
      ['rate', near],
    ]
    const row = `rate:${key.brandId}:${key.country}:${key.cardType}`
    expect(await refused(await post(rates.action, '/ops/rates', [...form, ['rate', '1']], jar), 'This form sends rate once')).toMatchObject(
      { form: row },
    )
    await refused(await post(rates.action, '/ops/rates', [...form.slice(0, 4), ['rate', '1'.repeat(21)]], jar), /^Rate:/)
    await refused(
      await post(
        rates.action,
        '/ops/rates',
        form.filter(([n]) => n !== 'country'),
        jar,
      ),
      'Choose the country of the card',
    )
    await refused(await post(rates.action, '/ops/rates', [...form, ['setBy', 'someone']], jar), 'This form does not take setBy')
    await refused(await post(rates.action, '/ops/rates', [...form, ['confirmed', 'true']], jar), /./)
    await refused(await post(rates.action, '/ops/rates', [['intent', 'delete'], ...form.slice(1)], jar), 'Choose Save, Approve or Decline')
    await refused(await post(rates.action, '/ops/rates', [...form, HOSTILE], jar), accessMessages.formUnreadable)
    expect(await rateNow(jar)).toBe(before)

    const brandEta = async () =>
      (await jsonOf(await load(rates.loader, '/ops/rates', jar))).brands.find((b: { brandId: string }) => b.brandId === key.brandId)
        .etaMinutes
    const eta = await brandEta()
    const etaForm: [string, string][] = [
      ['intent', 'eta'],
      ['brandId', key.brandId],
    ]
    expect(await refused(await post(rates.action, '/ops/rates', [...etaForm, ['etaMinutes', '1'.repeat(6)]], jar), /^ETA:/)).toMatchObject({
      form: `eta:${key.brandId}`,
    })
    await refused(await post(rates.action, '/ops/rates', [...etaForm, ['etaMinutes', '0']], jar), /^ETA:/)
    await refused(
      await post(rates.action, '/ops/rates', [...etaForm, ['etaMinutes', '30'], ['etaMinutes', '40']], jar),
      'This form sends etaMinutes once',
    )
    await refused(await post(rates.action, '/ops/rates', etaForm, jar), /^ETA:/)
    expect(await brandEta()).toBe(eta)

    // The forms as the page sends them still work.
    expect(await post(rates.action, '/ops/rates', form, jar)).toHaveRedirect('/ops/rates')
    expect(await rateNow(jar)).toBe(near)
    expect(await post(rates.action, '/ops/rates', [...etaForm, ['etaMinutes', String(eta + 1)]], jar)).toHaveRedirect('/ops/rates')
    expect(await brandEta()).toBe(eta + 1)
  })
})

describe('/ops/staff', () => {
  it('invite, role, reset, disable: a field twice, too long, missing, injected or hostile is a sentence; nobody changes', async () => {
    const { jar } = await staffJar(api, 'admin')
    const target = await staffJar(api, 'reviewer')
    const email = newEmail('asked')
    const invite: [string, string][] = [
      ['intent', 'invite'],
      ['email', email],
      ['role', 'reviewer'],
    ]
    // The role twice: the second must not make an admin past the check of the first.
    expect(
      await refused(await post(staffDesk.action, '/ops/staff', [...invite, ['role', 'admin']], jar), 'This form sends role once'),
    ).toMatchObject({
      form: 'invite',
    })
    await refused(
      await post(
        staffDesk.action,
        '/ops/staff',
        [
          ['intent', 'invite'],
          ['email', `${'a'.repeat(250)}@x.io`],
          ['role', 'reviewer'],
        ],
        jar,
      ),
      'E-mail is too long',
    )
    await refused(
      await post(
        staffDesk.action,
        '/ops/staff',
        [
          ['intent', 'invite'],
          ['role', 'reviewer'],
        ],
        jar,
      ),
      'E-mail is required',
    )
    await refused(
      await post(
        staffDesk.action,
        '/ops/staff',
        [
          ['intent', 'invite'],
          ['email', email],
          ['role', 'owner'],
        ],
        jar,
      ),
      'Choose a role: reviewer, payouts or admin',
    )
    await refused(
      await post(staffDesk.action, '/ops/staff', [...invite, ['createdBy', 'staff:someone']], jar),
      'This form does not take createdBy',
    )
    await refused(await post(staffDesk.action, '/ops/staff', [...invite, HOSTILE], jar), accessMessages.formUnreadable)
    expect(await api.db.selectFrom('staff').select('email').where('email', '=', email).execute()).toEqual([])

    const other = target.staff.email
    expect(
      await refused(
        await post(
          staffDesk.action,
          '/ops/staff',
          [
            ['intent', 'role'],
            ['email', other],
            ['role', 'admin'],
            ['role', 'payouts'],
          ],
          jar,
        ),
        /once/,
      ),
    ).toMatchObject({
      form: `row:${other}`,
    })
    await refused(
      await post(
        staffDesk.action,
        '/ops/staff',
        [
          ['intent', 'disable'],
          ['email', other],
          ['email', email],
          ['confirmed', 'yes'],
        ],
        jar,
      ),
      'This form sends email once',
    )
    await refused(
      await post(
        staffDesk.action,
        '/ops/staff',
        [
          ['intent', 'promote'],
          ['email', other],
        ],
        jar,
      ),
      'Choose Invite, Change, Confirm, Reset or Disable',
    )
    const still = await api.db.selectFrom('staff').select(['role', 'status']).where('email', '=', other).executeTakeFirstOrThrow()
    expect(still).toEqual({ role: 'reviewer', status: 'active' })

    // The invite as the page sends it still answers the set-up link.
    const done = await post(staffDesk.action, '/ops/staff', invite, jar)
    expect(done.status).toBe(200)
    expect((await jsonOf(done)).setup).toMatchObject({ email, why: 'invited' })
  })
})

describe('/ops/support/:id', () => {
  it('a reply too long, missing, twice, or with a hostile name is a sentence; the thread does not change', async () => {
    const { token } = await seedUser(api, { email: newEmail('desk-asks') })
    const sent = await submit(start.action, '/support/new', { body: 'Help me' }, await signedInJar(token))
    const id = sent.headers.get('location')!.split('/').pop()!
    const { jar } = await staffJar(api, 'reviewer')
    const path = `/ops/support/${id}`
    const messages = async () => (await jsonOf(await load(deskThread.loader, path, jar, { id }))).thread.messages.length
    const reply: [string, string][] = [
      ['intent', 'reply'],
      ['body', 'On it'],
    ]
    expect(
      await refused(
        await post(
          deskThread.action,
          path,
          [
            ['intent', 'reply'],
            ['body', 'x'.repeat(2001)],
          ],
          jar,
          { id },
        ),
        'Keep the message under 2000 characters',
      ),
    ).toMatchObject({
      form: 'reply',
    })
    await refused(await post(deskThread.action, path, [['intent', 'reply']], jar, { id }), 'Write your message')
    await refused(await post(deskThread.action, path, [...reply, ['body', 'and again']], jar, { id }), 'This form sends body once')
    await refused(
      await post(deskThread.action, path, [...reply, ['staffEmail', 'boss@example.com']], jar, { id }),
      'This form does not take staffEmail',
    )
    await refused(await post(deskThread.action, path, [['intent', 'delete']], jar, { id }), 'Choose Send reply or Close conversation')
    await refused(
      await post(
        deskThread.action,
        path,
        [
          ['intent', 'close'],
          ['body', 'bye'],
        ],
        jar,
        { id },
      ),
      'This form does not take body',
    )
    await refused(await post(deskThread.action, path, [...reply, HOSTILE], jar, { id }), accessMessages.formUnreadable)
    expect(await messages()).toBe(1)
    expect((await jsonOf(await load(deskThread.loader, path, jar, { id }))).thread.status).not.toBe('closed')
    expect(await post(deskThread.action, path, reply, jar, { id })).toHaveRedirect(path)
    expect(await messages()).toBe(2)
  })
})

describe('/ops/payouts', () => {
  it('an id or a reference sent twice is a sentence beside the row; the withdrawal does not move', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 500_000)).body.data
    const twice = await post(
      payouts.action,
      '/ops/payouts',
      [
        ['intent', 'processing'],
        ['id', w.id],
        ['id', 'other'],
      ],
      jar,
    )
    expect(twice.status).toBe(400)
    expect(await jsonOf(twice)).toEqual({ id: w.id, message: 'This form sends id once' })
    await refused(
      await post(payouts.action, '/ops/payouts', [['intent', 'processing'], ['id', w.id], HOSTILE], jar),
      accessMessages.formUnreadable,
    )
    const row = await api.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('pending')
  })
})

describe('/ops/review/:orderId', () => {
  /** The reject form as the page posts it: multipart, because it may carry a proof photo. */
  function postMultipart(path: string, fields: [string, string][], jar: CookieJar, params: Record<string, string>) {
    const form = new FormData()
    for (const [name, value] of fields) form.append(name, value)
    const request = new Request(new URL(path, ORIGIN), { method: 'POST', body: form, headers: { Cookie: jar.header() ?? '' } })
    return call(reviewOrder.action, request, params, jar)
  }

  it('the decide forms: a field twice, too long, missing, injected or hostile is a sentence; the order stays held', async () => {
    const { jar } = await staffJar(api, 'reviewer')
    const seller = await walletUser(api, { balance: 0, card: false, pin: null })
    const order = await sold(api, seller.token)
    const cardId = order.cards[0].cardId
    const path = `/ops/review/${order.id}`
    const params = { orderId: order.id }
    const act = (fields: [string, string][]) => post(reviewOrder.action, path, fields, jar, params)
    expect((await act([['intent', 'claim']])).status).toBe(302)

    // A second note must not ride past the check of the first.
    expect(
      await refused(
        await act([
          ['intent', 'complete'],
          ['note', 'ok'],
          ['note', 'N'.repeat(600)],
        ]),
        'This form sends note once',
      ),
    ).toMatchObject({
      intent: 'complete',
    })
    await refused(
      await act([
        ['intent', 'complete'],
        ['note', 'N'.repeat(501)],
      ]),
      'Note: at most 500 characters',
    )
    await refused(
      await act([
        ['intent', 'complete'],
        ['id', 'another-order'],
      ]),
      'This form does not take id',
    )
    await refused(await act([['intent', 'claim'], HOSTILE]), accessMessages.formUnreadable)
    await refused(await act([['intent', 'pay']]), 'Choose what to do with this order')
    await refused(await act([['note', 'no intent']]), 'Choose what to do with this order')
    const propose: [string, string][] = [
      ['intent', 'propose'],
      [`payout-${cardId}`, '1'],
      [`reason-${cardId}`, 'UNREADABLE'],
      ['reason', 'Part of the code is scratched'],
    ]
    await refused(await act([...propose, ['cards', '[]']]), 'This form does not take cards')
    await refused(await act([...propose, ['payout-another-card', '1']]), 'This form does not take payout-another-card')
    await refused(await act([...propose, [`payout-${cardId}`, '2']]), `This form sends payout-${cardId} once`)

    // The reject form is multipart: the same bounds and schema as every other desk form.
    const reject: [string, string][] = [
      ['intent', 'reject'],
      ['reasonCode', 'ALREADY_USED'],
      ['note', 'Zero balance'],
    ]
    await refused(await postMultipart(path, [...reject, HOSTILE], jar, params), accessMessages.formUnreadable)
    await refused(await postMultipart(path, [...reject, ['reasonCode', 'OTHER']], jar, params), 'This form sends reasonCode once')
    await refused(await postMultipart(path, [...reject, ['orderId', 'another-order']], jar, params), 'This form does not take orderId')
    await refused(
      await postMultipart(path, [...reject.slice(0, 2), ['note', 'N'.repeat(501)]], jar, params),
      'Note: at most 500 characters',
    )
    await refused(await postMultipart(path, [reject[0], reject[2]], jar, params), 'Choose the reason for the rejection')
    await refused(
      await postMultipart(
        path,
        [
          ['intent', 'reject'],
          ['reasonCode', 'NOT_A_REASON'],
        ],
        jar,
        params,
      ),
      'Choose the reason for the rejection',
    )

    const seen = (await api.get<Order>(`/v1/order/detail?id=${order.id}`, { token: seller.token })).body.data
    expect(seen.status).toBe('reviewing')
    expect(seen.proposal ?? null).toBeNull()
  })
})
