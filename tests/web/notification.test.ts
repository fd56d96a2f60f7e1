import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Notification } from '#contract/notifications'
import * as root from '~/root'
import * as notification from '~/routes/notification'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { ops, sold, useSellingApi } from '../support/selling'
import { admin, adjust, walletUser, withdraw } from '../support/wallet'
import { type CookieJar, jsonOf, load, signedInJar, submit } from '../support/web'

/**
 * /notification through its loader and action with real Requests, against the real api; the
 * notifications come from the real flows (withdrawals, orders and operators' adjustments).
 */
const api = useSellingApi({ web: true })
const SECOND = 1_000

type Loaded = { page: { list: Notification[]; total: number; pageNum: number; pageSize: number }; timeZone: string }
const listOf = async (jar: CookieJar, path = '/notification') => (await jsonOf<Loaded>(await load(notification.loader, path, jar))).page
const unreadInRoot = async (jar: CookieJar) => (await jsonOf(await load(root.loader, '/notification', jar))).user.unreadCount as number

/** A person whose wallet was credited, who withdrew, and sold a card that was then reviewed: five notifications. */
async function busyPerson() {
  const u = await walletUser(api, { balance: 1_000_000 })
  // Saving the bank account told the person too (a security notification, decision 046); this list is about the flows below.
  const saved = api.db.selectFrom('notifications').select('id').where('user_id', '=', u.userId).where('title', '=', 'Bank account added')
  await api.db.deleteFrom('deliveries').where('notification_id', 'in', saved).execute()
  await api.db.deleteFrom('notifications').where('id', 'in', saved).execute()
  api.clock.advance(SECOND)
  const w = (await withdraw(api, u, 300_000)).body.data
  api.clock.advance(SECOND)
  await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
  api.clock.advance(SECOND)
  const order = await sold(api, u.token)
  api.clock.advance(SECOND)
  await ops(api).claim(order.id)
  return { u, w, order, jar: await signedInJar(u.token) }
}

describe('the guard', () => {
  it('sends a visitor to sign in first, for the page and for its forms', async () => {
    expect(await load(notification.loader, '/notification')).toHaveRedirect('/login?redirectTo=%2Fnotification')
    const res = await submit(notification.action, '/notification', { intent: 'all' })
    expect(res).toHaveRedirect(/^\/login/)
  })
})

describe('the list', () => {
  it('shows what the flows wrote, newest first, unread; the root counts them for the badge', async () => {
    const { w, order, jar } = await busyPerson()
    const page = await listOf(jar)
    expect(page).toMatchObject({ total: 5, pageNum: 1, pageSize: 20 })
    expect(page.list.map((m) => [m.title, m.kind, m.refId, m.read])).toEqual([
      ['Order in review', 'order', order.id, false],
      ['Order received', 'order', order.id, false],
      ['Withdrawal processing', 'withdrawal', w.id, false],
      ['Withdrawal requested', 'withdrawal', w.id, false],
      ['Wallet credited', 'wallet', null, false],
    ])
    expect(await unreadInRoot(jar)).toBe(5)
  })

  it('pages twenty at a time by ?page=N; anything else is the first page; past the end is an empty page', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('pages') })
    for (let i = 1; i <= 23; i++) {
      api.clock.advance(SECOND)
      await adjust(api, user.id, 1_000, `credit ${i}`)
    }
    const jar = await signedInJar(token)
    const first = await listOf(jar)
    expect(first).toMatchObject({ total: 23, pageNum: 1, pageSize: 20 })
    expect(first.list[0].content).toContain('credit 23')
    const second = await listOf(jar, '/notification?page=2')
    expect(second.list.map((m) => m.content)).toEqual([3, 2, 1].map((i) => expect.stringContaining(`credit ${i}`)))
    for (const junk of ['abc', '-1', '0', '1e3', '2.5', 'x'.repeat(500)]) {
      expect((await listOf(jar, `/notification?page=${junk}`)).pageNum).toBe(1)
    }
    const far = await load(notification.loader, '/notification?page=999999', jar)
    expect(far.status).toBe(200)
    expect((await jsonOf<Loaded>(far)).page).toMatchObject({ list: [], total: 23 })
  })

  it('a new person: an empty list and no badge', async () => {
    const { token } = await seedUser(api, { email: newEmail('empty') })
    const jar = await signedInJar(token)
    expect(await listOf(jar)).toMatchObject({ list: [], total: 0 })
    expect(await unreadInRoot(jar)).toBe(0)
  })
})

describe('opening a notification', () => {
  it('marks it read and goes to what it is about: the order, the withdrawal, the wallet', async () => {
    const { w, order, jar } = await busyPerson()
    const [review, , processing, , credited] = (await listOf(jar)).list

    expect(await submit(notification.action, '/notification', { intent: 'open', id: review.id }, jar)).toHaveRedirect(`/order/${order.id}`)
    expect(await unreadInRoot(jar)).toBe(4)
    expect(await submit(notification.action, '/notification', { intent: 'open', id: processing.id }, jar)).toHaveRedirect(
      `/wallet/withdraw/${w.id}`,
    )
    expect(await submit(notification.action, '/notification', { intent: 'open', id: credited.id }, jar)).toHaveRedirect('/wallet')
    expect(await unreadInRoot(jar)).toBe(2)
    expect((await listOf(jar)).list.map((m) => m.read)).toEqual([true, false, true, false, true])

    // Again: still read, same place.
    expect(await submit(notification.action, '/notification', { intent: 'open', id: review.id }, jar)).toHaveRedirect(`/order/${order.id}`)
    expect(await unreadInRoot(jar)).toBe(2)
  })

  it('someone else’s notification: "This notification was not found", and it stays unread for its owner', async () => {
    const mine = await busyPerson()
    const theirs = await busyPerson()
    const [target] = (await listOf(theirs.jar)).list
    const res = await submit(notification.action, '/notification', { intent: 'open', id: target.id }, mine.jar)
    expect(res.status).toBe(404)
    expect((await jsonOf(res)).error).toBe('This notification was not found')
    expect(await unreadInRoot(theirs.jar)).toBe(5)
    expect(await unreadInRoot(mine.jar)).toBe(5)
  })

  it.each([
    [{}],
    [{ intent: 'open' }],
    [{ intent: 'open', id: '' }],
    [{ intent: 'open', id: '../../admin' }],
    [{ intent: 'open', id: 'x'.repeat(65) }],
    [{ intent: 'open', id: 'a\u0000b' }],
    [{ intent: 'delete', id: 'abc' }],
    [{ intent: 'x'.repeat(5000) }],
  ])('bad input %j: a message, nothing read, never 500', async (form) => {
    const { jar } = await busyPerson()
    const res = await submit(notification.action, '/notification', form as Record<string, string>, jar)
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).error).toBe('Choose a notification')
    expect(await unreadInRoot(jar)).toBe(5)
  })
})

describe('mark all read', () => {
  it('marks every notification read and comes back to the same page with a toast; the badge is gone', async () => {
    const { jar } = await busyPerson()
    const res = await submit(notification.action, '/notification?page=2', { intent: 'all' }, jar)
    expect(res).toHaveRedirect('/notification?page=2')
    await expect(res).toSendToast({ type: 'success', message: 'All notifications marked as read' })
    expect(await unreadInRoot(jar)).toBe(0)
    expect((await listOf(jar)).list.every((m) => m.read)).toBe(true)
    // Nothing unread: still fine.
    expect(await submit(notification.action, '/notification', { intent: 'all' }, jar)).toHaveRedirect('/notification')
  })
})

describe('hostile forms', () => {
  it('random forms to the action answer a redirect or a message, never 500', async () => {
    const { jar } = await busyPerson()
    const form = fc.dictionary(
      fc.constantFrom('intent', 'id', 'all', 'redirectTo', '__proto__'),
      fc.oneof(fc.constantFrom('open', 'all', ''), fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 })),
      { maxKeys: 3 },
    )
    await fc.assert(
      fc.asyncProperty(form, async (f) => {
        const res = await submit(notification.action, '/notification', f, jar)
        expect(res.status).toBeLessThan(500)
        // Wherever it goes, it stays on this site and never where a form field said.
        const to = res.headers.get('Location')
        if (to) expect(to).toMatch(/^\/(notification|order\/|wallet)/)
      }),
      { numRuns: 100 },
    )
  })
})
