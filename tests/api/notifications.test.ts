import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Page } from '#contract/envelope'
import { notificationsApi, type Notification, type ReadNotificationData } from '#contract/notifications'
import type { UserIndexData } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { ops, sold, useSellingApi } from '../support/selling'
import { admin, adjust, walletUser, withdraw } from '../support/wallet'

/**
 * Notifications through HTTP against the real api: written by the real flows (orders,
 * withdrawals, operators' adjustments), paged newest first, read one by one or all at once, only
 * ever the person's own, and bad input answered 400, never 500.
 */
const api = useSellingApi()
const SECOND = 1_000

const page = async (token: string, query = '') => api.get<Page<Notification>>(`/v1/user/pageMessage${query}`, { token })
const list = async (token: string, query = '') => (await page(token, query)).body.data.list
const unread = async (token: string) => (await api.get<UserIndexData>('/v1/user/index', { token })).body.data.unreadCount
const read = (token: string, body: unknown) => api.post<ReadNotificationData>('/v1/user/readMessage', body, { token })
const readAt = async (id: string) =>
  (await api.db.selectFrom('notifications').select('read_at').where('id', '=', id).executeTakeFirstOrThrow()).read_at

/** A person with `n` notifications (operators' credits), one second apart, the newest last. */
async function personWith(n: number) {
  const { user, token } = await seedUser(api, { email: newEmail('notifications') })
  for (let i = 1; i <= n; i++) {
    api.clock.advance(SECOND)
    await adjust(api, user.id, 1_000 * i, `credit ${i}`)
  }
  return { userId: user.id, token }
}

describe('GET /v1/user/pageMessage', () => {
  it('needs a token', async () => {
    expect((await api.get('/v1/user/pageMessage')).status).toBe(401)
    expect((await api.post('/v1/user/readMessage', { all: true })).status).toBe(401)
  })

  it('a new person has none', async () => {
    const { token } = await seedUser(api, { email: newEmail('none') })
    const res = await page(token)
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { list: [], total: 0, pageNum: 1, pageSize: 10 } })
    expect(await unread(token)).toBe(0)
  })

  it('shows what the withdrawal and order flows wrote, newest first, each pointing at what it is about', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    api.clock.advance(SECOND)
    const w = (await withdraw(api, u, 300_000)).body.data
    api.clock.advance(SECOND)
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
    api.clock.advance(SECOND)
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-42' })
    api.clock.advance(SECOND)
    const order = await sold(api, u.token)
    api.clock.advance(SECOND)
    await ops(api).claim(order.id)
    api.clock.advance(SECOND)
    await ops(api).complete(order.id)

    const res = await page(u.token, '?pageSize=50')
    const data = notificationsApi.pageMessage.data.parse(res.body.data)
    // The bank account and the first credit are written in the same millisecond: their order is the ids'.
    const rows = data.list.map((m) => [m.kind, m.refId, m.title, m.read])
    expect([...rows.slice(0, 6), ...rows.slice(6).sort((a, b) => String(a[0]).localeCompare(String(b[0])))]).toEqual([
      ['order', order.id, 'Order completed', false],
      ['order', order.id, 'Order in review', false],
      ['order', order.id, 'Order received', false],
      ['withdrawal', w.id, 'Withdrawal paid', false],
      ['withdrawal', w.id, 'Withdrawal processing', false],
      ['withdrawal', w.id, 'Withdrawal requested', false],
      ['security', null, 'Bank account added', false],
      ['wallet', null, 'Wallet credited', false],
    ])
    expect(data.list[3].content).toContain('NIP-42')
    expect(data.list.map((m) => m.createdAt)).toEqual([...data.list.map((m) => m.createdAt)].sort((a, b) => b - a))
    expect(data.total).toBe(8)
    expect(await unread(u.token)).toBe(8)
  })

  it('pages by pageNum and pageSize: no notification twice, none left out, the newest on page 1', async () => {
    const p = await personWith(12)
    const first = (await page(p.token, '?pageNum=1&pageSize=5')).body.data
    expect(first).toMatchObject({ total: 12, pageNum: 1, pageSize: 5 })
    expect(first.list.map((m) => m.content)).toEqual([12, 11, 10, 9, 8].map((i) => expect.stringContaining(`credit ${i}`)))
    const third = (await page(p.token, '?pageNum=3&pageSize=5')).body.data
    expect(third.list.map((m) => m.content)).toEqual([2, 1].map((i) => expect.stringContaining(`credit ${i}`)))
    expect((await page(p.token, '?pageNum=4&pageSize=5')).body.data).toMatchObject({ list: [], total: 12 })
    // The default page is ten.
    expect(await list(p.token)).toHaveLength(10)
  })

  it('notifications written in the same millisecond still page without overlap', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('same-ms') })
    for (let i = 1; i <= 7; i++) await adjust(api, user.id, 1_000, `credit ${i}`) // the clock stands still
    const ids = [
      ...(await list(token, '?pageSize=3')),
      ...(await list(token, '?pageNum=2&pageSize=3')),
      ...(await list(token, '?pageNum=3&pageSize=3')),
    ].map((m) => m.id)
    expect(new Set(ids).size).toBe(7)
  })

  it.each([
    ['?pageNum=0', 'pageNum'],
    ['?pageNum=-1', 'pageNum'],
    ['?pageNum=abc', 'pageNum'],
    ['?pageNum=1.5', 'pageNum'],
    ['?pageNum=100001', 'pageNum'],
    ['?pageSize=0', 'pageSize'],
    ['?pageSize=51', 'pageSize'],
    ['?pageSize=1e400', 'pageSize'],
    ['?pageNum=1&pageNum=2', 'pageNum'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const { token } = await seedUser(api, { email: newEmail('bad-page') })
    const res = await page(token, query)
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(new RegExp(`^${field}: `))
  })
})

describe('POST /v1/user/readMessage', () => {
  it('marks one read and answers it with what is still unread; again changes nothing', async () => {
    const p = await personWith(3)
    const [newest, middle] = await list(p.token)
    const res = await read(p.token, { id: middle.id })
    expect(res.body.code).toBe(200)
    const data = notificationsApi.readMessage.data.parse(res.body.data)
    expect(data).toEqual({ notification: { ...middle, read: true }, unreadCount: 2 })
    const firstReadAt = await readAt(middle.id)
    expect(Number(firstReadAt)).toBe(api.clock.now())

    api.clock.advance(60 * SECOND)
    expect((await read(p.token, { id: middle.id })).body.data).toEqual(data)
    expect(await readAt(middle.id)).toEqual(firstReadAt) // the first read keeps its time
    expect((await list(p.token)).map((m) => m.read)).toEqual([false, true, false])
    expect(await unread(p.token)).toBe(2)
    expect(newest.read).toBe(false)
  })

  it('marks all read; again is fine; the count is then 0', async () => {
    const p = await personWith(4)
    await read(p.token, { id: (await list(p.token))[0].id })
    const res = await read(p.token, { all: true })
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { notification: null, unreadCount: 0 } })
    expect((await list(p.token)).every((m) => m.read)).toBe(true)
    expect(await unread(p.token)).toBe(0)
    expect((await read(p.token, { all: true })).body.data).toEqual({ notification: null, unreadCount: 0 })
    // A person with no notifications at all may ask too.
    const { token } = await seedUser(api, { email: newEmail('nothing') })
    expect((await read(token, { all: true })).body.data).toEqual({ notification: null, unreadCount: 0 })
  })

  it('someone else’s notification is "This notification was not found" and stays unread; their all leaves mine alone', async () => {
    const mine = await personWith(2)
    const theirs = await personWith(2)
    const [target] = await list(theirs.token)
    const res = await read(mine.token, { id: target.id })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: Refusals.NOTIFICATION_NOT_FOUND.code, msg: 'This notification was not found', data: null })
    expect(await readAt(target.id)).toBeNull()
    expect(await unread(theirs.token)).toBe(2)

    await read(theirs.token, { all: true })
    expect(await unread(theirs.token)).toBe(0)
    expect(await unread(mine.token)).toBe(2)
  })

  it('an unknown id is "This notification was not found"', async () => {
    const p = await personWith(1)
    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-such-notification', ' x ']) {
      expect((await read(p.token, { id })).body).toEqual({
        code: Refusals.NOTIFICATION_NOT_FOUND.code,
        msg: 'This notification was not found',
        data: null,
      })
    }
    expect(await unread(p.token)).toBe(1)
  })

  it.each([
    [{}, 'body: Send the id of one notification, or all: true'],
    [{ id: 'a', all: true }, 'body: Send the id of one notification, or all: true'],
    [{ all: false }, 'all: all must be true'],
    [{ all: 'true' }, 'all: all must be true'],
    [{ all: 1 }, 'all: all must be true'],
    [{ id: '' }, 'id: id is required'],
    [{ id: '   ' }, 'id: id is required'],
    [{ id: 42 }, 'id: id must be text'],
    [{ id: null }, 'id: id must be text'],
    [{ id: ['a'] }, 'id: id must be text'],
    [{ id: { $ne: null } }, 'id: id must be text'],
    [{ id: 'x'.repeat(65) }, 'id: id is not a notification id'],
    [{ id: 'a\u0000b' }, 'id: id is not a notification id'],
    [{ id: "' OR 1=1 --" }, 'id: id is not a notification id'],
    [{ id: 'é' }, 'id: id is not a notification id'],
    [{ id: 'a', read: true }, 'read: Unknown field'],
    [[], 'body: Expected object, received array'],
    ['all', 'body: Malformed JSON'], // strict JSON: a bare string is not a body,
  ])('refuses %j with 400 and changes nothing', async (body, msg) => {
    const p = await personWith(1)
    const res = await read(p.token, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 400, msg, data: null })
    expect(await unread(p.token)).toBe(1)
  })

  it('malformed JSON and a body that is not JSON are 400, not 500', async () => {
    const p = await personWith(1)
    const broken = await api.post('/v1/user/readMessage', undefined, {
      token: p.token,
      raw: '{"all": tr',
      headers: { 'content-type': 'application/json' },
    })
    expect(broken.status).toBe(400)
    const form = await api.post('/v1/user/readMessage', undefined, {
      token: p.token,
      raw: 'all=true',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.status).toBe(400)
    expect(await unread(p.token)).toBe(1)
  })

  it('one and all at the same time, many times over: every answer 200, everything read once', async () => {
    const p = await personWith(6)
    const ids = (await list(p.token)).map((m) => m.id)
    const answers = await Promise.all([
      ...ids.map((id) => read(p.token, { id })),
      read(p.token, { all: true }),
      ...ids.map((id) => read(p.token, { id })),
    ])
    expect(answers.map((a) => a.body.code)).toEqual(answers.map(() => 200))
    expect(await unread(p.token)).toBe(0)
  })
})

describe('hostile input', () => {
  it('random bodies to readMessage and random queries to pageMessage never answer 5xx, and read nothing they should not', async () => {
    const p = await personWith(2)
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }),
    )
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom('id', 'all', 'read', '__proto__', 'constructor'), value, { maxKeys: 3 }),
      fc.jsonValue({ maxDepth: 3 }),
    )
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await read(p.token, b)
        expect(res.status, res.text).toBeLessThan(500)
        if (res.status !== 200) expect(res.body.code).toBe(res.status)
      }),
      { numRuns: 200 },
    )
    const query = fc.dictionary(fc.constantFrom('pageNum', 'pageSize', '_t', 'userId'), fc.string({ maxLength: 12 }), { maxKeys: 3 })
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await page(p.token, `?${new URLSearchParams(q)}`)
        expect(res.status, res.text).toBeLessThan(500)
      }),
      { numRuns: 100 },
    )
  })
})
