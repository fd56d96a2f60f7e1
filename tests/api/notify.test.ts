import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CodeType } from '#contract/accounts'
import type { NotifyPreferencesData, PushSubscriptionInfo, PushSubscriptionsData, UnsubscribeData } from '#contract/notify'
import { Refusals } from '#contract/refusals'
import { claimDelivery } from '../../api/models/deliveries'
import { createDeliveryRunner, runDeliveriesOnce } from '../../api/services/notify/worker'
import { seedUser, TEST_VAPID_KEYS } from '../support/api'
import { newEmail } from '../support/kit'
import { startPushService, type TestPushService, type TestSubscription } from '../support/push-service'
import { ops, sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { admin, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * Push and e-mail beyond the app (decision 046), through HTTP against the real api and a push
 * service that checks the VAPID signature and decrypts what it gets with the test's own keys.
 */
const api = useSellingApi()
let push: TestPushService
beforeAll(async () => {
  push = await startPushService(TEST_VAPID_KEYS.publicKey)
})
afterAll(async () => {
  await push?.close()
})

const PASSWORD = 'a long enough passphrase 7'
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

let seq = 0
/** A seller with a wallet and a browser subscribed to push. */
async function subscribed(options: Parameters<typeof walletUser>[1] = {}): Promise<WalletUser & { sub: TestSubscription }> {
  const u = await walletUser(api, options)
  const sub = push.subscription(`s${++seq}-${u.userId}`)
  const res = await api.post<PushSubscriptionInfo>(
    '/v1/user/pushSubscribe',
    { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys, userAgent: CHROME_ANDROID },
    { token: u.token },
  )
  expect(res.body.code, res.text).toBe(200)
  return { ...u, sub }
}

const mailsTo = (email: string, subject: string) => api.mails.filter((m) => m.to === email && m.subject === subject)
const deliveriesOf = (userId: string) => api.db.selectFrom('deliveries').selectAll().where('user_id', '=', userId).execute()

/** Runs `passes` worker passes (each takes at most the concurrency bound of rows). */
async function drain(passes = 3) {
  for (let i = 0; i < passes; i++) await runDeliveriesOnce(api.deps)
}

describe('order events', () => {
  it('order paid: one push (no amount on the lock screen) and one e-mail, the screen linked, and nothing more on the next pass', async () => {
    const u = await subscribed()
    const order = await sold(api, u.token)
    await ops(api).claim(order.id)
    const decided = performance.now()
    expect((await ops(api).complete(order.id)).body.code).toBe(200)
    await drain()
    const [got] = await push.waitFor(u.sub.name)
    const ms = performance.now() - decided
    console.info(`decision → push at the push service: ${ms.toFixed(1)} ms (one worker pass)`)
    const n = await api.db
      .selectFrom('notifications')
      .selectAll()
      .where('ref_id', '=', order.id)
      .where('title', '=', 'Order completed')
      .executeTakeFirstOrThrow()
    expect(got.payload).toEqual({
      title: 'Order completed',
      body: expect.stringContaining('is paid') as string,
      url: `/order/${order.id}`,
      tag: n.id,
    })
    expect(got.payload.body).not.toMatch(/\d[\d,.]*\s*(NGN|₦)|₦/)
    expect(got.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/)
    expect(got.urgency).toBe('high')

    const [mail] = mailsTo(u.email, 'Order completed')
    expect(mail.text).toContain(n.content)
    expect(mail.text).toContain(`https://web.test/order/${order.id}`)
    expect(mail.html).toContain('Cardlane')
    expect(mail.html).toContain(`href="https://web.test/order/${order.id}"`)
    expect(mail.headers?.['List-Unsubscribe']).toMatch(/^<https:\/\/web\.test\/unsubscribe\/[A-Za-z0-9_.-]+>$/)
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(mail.messageId).toMatch(/^<[0-9a-f-]+@web\.test>$/)

    await drain()
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(1)
    expect(mailsTo(u.email, 'Order completed')).toHaveLength(1)
    expect(push.problems).toEqual([])
  })

  it('a lower offer and a rejection (with its reason) each push and mail once', async () => {
    const u = await subscribed()
    const offered = await sold(api, u.token)
    await ops(api).claim(offered.id)
    const cardId = offered.cards[0].cardId
    expect(
      (await ops(api).propose(offered.id, 'The card was partly used', [{ cardId, payout: 1_000, reasonCode: 'OTHER' }])).body.code,
    ).toBe(200)
    const rejected = await sold(api, u.token)
    await ops(api).claim(rejected.id)
    expect((await ops(api).reject(rejected.id, 'ALREADY_USED')).body.code).toBe(200)
    await drain()
    const got = await push.waitFor(u.sub.name, 2)
    expect(got.map((g) => g.payload.title).sort()).toEqual(['A lower payout is offered', 'Order rejected'])
    const rejection = got.find((g) => g.payload.title === 'Order rejected')!
    expect(rejection.payload.body).toContain('The card had already been used')
    expect(rejection.payload.url).toBe(`/order/${rejected.id}`)
    expect(mailsTo(u.email, 'A lower payout is offered')).toHaveLength(1)
    expect(mailsTo(u.email, 'Order rejected')).toHaveLength(1)
  })
})

describe('withdrawal and security events', () => {
  it('withdrawal paid and withdrawal failed push and mail once each, opening the withdrawal', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    const paid = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-7' })
    const failed = (await withdraw(api, u, 200_000)).body.data
    expect(
      (await admin(api).post('/admin/withdraw/update', { id: failed.id, status: 'failed', reason: 'Account closed' })).body,
    ).toMatchObject({ code: 200 })
    await drain()
    const got = await push.waitFor(u.sub.name, 2)
    expect(got.map((g) => [g.payload.title, g.payload.url]).sort()).toEqual([
      ['Withdrawal failed', `/wallet/withdraw/${failed.id}`],
      ['Withdrawal paid', `/wallet/withdraw/${paid.id}`],
    ])
    expect(mailsTo(u.email, 'Withdrawal paid')).toHaveLength(1)
    expect(mailsTo(u.email, 'Withdrawal failed')).toHaveLength(1)
  })

  it('a staff reply to a support conversation is pushed and mailed once, opening the conversation', async () => {
    const u = await subscribed()
    const started = await api.post<{ id: string }>(
      '/v1/support/conversation/start',
      { subject: 'My card', body: 'Is it in review?' },
      { token: u.token },
    )
    expect(started.body.code, started.text).toBe(200)
    const staff = bearer((await seedStaff(api, { role: 'reviewer' })).token)
    const replied = await api.post('/admin/support/reply', { id: started.body.data.id, body: 'Yes, it is next' }, { headers: staff })
    expect(replied.body.code, replied.text).toBe(200)
    await drain()
    const [got] = await push.waitFor(u.sub.name)
    expect(got.payload).toMatchObject({ title: 'Support answered', url: `/support/${started.body.data.id}` })
    const mails = mailsTo(u.email, 'Support answered')
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toContain(`/support/${started.body.data.id}`)
    await drain()
    expect(mailsTo(u.email, 'Support answered')).toHaveLength(1)
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(1)
  })

  it('a new bank account is mailed (no unsubscribe: security) and never pushed; a PIN change is pushed and mailed', async () => {
    const u = await subscribed()
    await drain()
    const [bank] = mailsTo(u.email, 'Bank account added')
    expect(bank.headers?.['List-Unsubscribe']).toBeUndefined()
    expect(bank.text).toContain('cannot be turned off')
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toEqual([])
    expect((await api.post('/v1/user/setPin', { oldPin: '204816', pin: '863021' }, { token: u.token })).body.code).toBe(200)
    await drain()
    const [got] = await push.waitFor(u.sub.name)
    expect(got.payload).toMatchObject({ title: 'Withdrawal PIN changed', url: '/account' })
    expect(mailsTo(u.email, 'Withdrawal PIN changed')).toHaveLength(1)
  })

  it('with amounts allowed on the lock screen, the push says the amount', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    const on = await api.post<NotifyPreferencesData>('/v1/user/setNotifyPreferences', { pushAmounts: true }, { token: u.token })
    expect(on.body.data.pushAmounts).toBe(true)
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    await drain()
    const [got] = await push.waitFor(u.sub.name)
    expect(got.payload.body).toMatch(/\d/)
  })
})

describe('sign-in security events', () => {
  const device = () => randomBytes(24).toString('base64url')
  const login = (email: string, deviceId: string) =>
    api.post('/auth/login', { email, password: PASSWORD }, { headers: { 'x-cardlane-device': deviceId } })

  it('a new device signing in is mailed once; the device it was seen on before, and the first sign-in, are not', async () => {
    const email = newEmail('device')
    await seedUser(api, { email, password: PASSWORD })
    const [home, other] = [device(), device()]
    for (const d of [home, home, other, other, home]) expect((await login(email, d)).body.code).toBe(200)
    await drain()
    const mails = mailsTo(email, 'New device signed in')
    expect(mails).toHaveLength(1)
    expect(mails[0].headers?.['List-Unsubscribe']).toBeUndefined()
  })

  it('a password reset is mailed (security, no unsubscribe)', async () => {
    const email = newEmail('reset')
    await seedUser(api, { email, password: PASSWORD })
    expect((await api.post('/auth/sendEmailCode', { email, type: CodeType.RESET_PASSWORD })).body.code).toBe(200)
    await api.deps.mail.idle()
    const verifyCode = api.lastCode(email, CodeType.RESET_PASSWORD)
    const reset = await api.post('/auth/resetPassword', { email, password: 'another long passphrase 42', verifyCode })
    expect(reset.body.code, reset.text).toBe(200)
    await drain()
    const [mail] = mailsTo(email, 'Password changed')
    expect(mail.text).toContain('If this was not you')
    expect(mail.headers?.['List-Unsubscribe']).toBeUndefined()
  })
})

describe('exactly once', () => {
  it('a push service that answers 500 and then 201, and a mail server that fails once: one push, one e-mail', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    await drain()
    u.sub.script(500)
    const mailer = api.deps.notify.mailer
    const send = mailer.send.bind(mailer)
    let failures = 1
    mailer.send = async (m) => {
      if (failures-- > 0) throw new Error('421 try again later')
      return send(m)
    }
    try {
      const w = (await withdraw(api, u, 300_000)).body.data
      await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
      await drain()
      expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(0)
      expect(mailsTo(u.email, 'Withdrawal failed')).toHaveLength(0)
      const due = (await deliveriesOf(u.userId)).filter((d) => d.kind === 'withdrawal_failed')
      expect(due.map((d) => [d.channel, d.status, Number(d.attempts)]).sort()).toEqual([
        ['email', 'due', 1],
        ['push', 'due', 1],
      ])
      await drain()
      expect(mailsTo(u.email, 'Withdrawal failed')).toHaveLength(0)
      api.clock.advance(10 * 60_000)
      await drain(3)
      expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(1)
      expect(mailsTo(u.email, 'Withdrawal failed')).toHaveLength(1)
    } finally {
      mailer.send = send
    }
  })

  it('two devices, one failing for a while: each gets the push exactly once, the one that took it never again', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    const second = push.subscription(`s${++seq}-second-${u.userId}`)
    const added = await api.post<PushSubscriptionInfo>(
      '/v1/user/pushSubscribe',
      { endpoint: second.endpoint, expirationTime: null, keys: second.keys, userAgent: CHROME_ANDROID },
      { token: u.token },
    )
    expect(added.body.code, added.text).toBe(200)
    await drain()
    second.script(500, 503)
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    const failedPushes = (name: string) => push.received.filter((r) => r.subscription === name && r.payload.title === 'Withdrawal failed')
    await drain()
    expect(failedPushes(u.sub.name)).toHaveLength(1)
    expect(failedPushes(second.name)).toHaveLength(0)
    const pushRow = async () => (await deliveriesOf(u.userId)).find((d) => d.kind === 'withdrawal_failed' && d.channel === 'push')
    expect((await pushRow())?.status).toBe('due')
    api.clock.advance(10 * 60_000)
    await drain()
    // The second device refused again; the first is not asked a second time.
    expect(failedPushes(u.sub.name)).toHaveLength(1)
    expect(failedPushes(second.name)).toHaveLength(0)
    api.clock.advance(30 * 60_000)
    await drain()
    expect(failedPushes(u.sub.name)).toHaveLength(1)
    expect(failedPushes(second.name)).toHaveLength(1)
    expect(failedPushes(second.name)[0].topic).toBe(failedPushes(u.sub.name)[0].topic)
    expect((await pushRow())?.status).toBe('sent')
    api.clock.advance(60 * 60_000)
    await drain()
    expect(failedPushes(u.sub.name)).toHaveLength(1)
    expect(failedPushes(second.name)).toHaveLength(1)
  })

  it('a device that never takes it: the one that did counts, the delivery ends as sent with the problem kept', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    const broken = push.subscription(`s${++seq}-broken-${u.userId}`)
    await api.post(
      '/v1/user/pushSubscribe',
      { endpoint: broken.endpoint, expirationTime: null, keys: broken.keys, userAgent: CHROME_ANDROID },
      { token: u.token },
    )
    await drain()
    broken.script(...Array.from({ length: 20 }, () => 500))
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    for (let i = 0; i < 10; i++) {
      await drain(1)
      api.clock.advance(2 * 3_600_000)
    }
    const row = (await deliveriesOf(u.userId)).find((d) => d.kind === 'withdrawal_failed' && d.channel === 'push')
    expect(row).toMatchObject({ status: 'sent', attempts: 8 })
    expect(row?.last_error).toBeTruthy()
    expect(push.received.filter((r) => r.subscription === u.sub.name && r.payload.title === 'Withdrawal failed')).toHaveLength(1)
    expect(push.received.filter((r) => r.subscription === broken.name)).toHaveLength(0)
  })

  it('a worker that dies after its claim: nothing is sent until the lease runs out, then once', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    await drain()
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    const rows = (await deliveriesOf(u.userId)).filter((d) => d.kind === 'withdrawal_failed')
    const now = api.clock.now()
    for (const d of rows) expect(await claimDelivery(api.db, d.id, now, now + api.deps.config.notify.leaseMs)).toBeDefined()
    await drain()
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(0)
    api.clock.advance(api.deps.config.notify.leaseMs + 1)
    await drain(2)
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toHaveLength(1)
    expect(mailsTo(u.email, 'Withdrawal failed')).toHaveLength(1)
  })

  it('a worker that dies after sending an e-mail, before marking it: sent once more at most, with the same Message-ID', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    await drain()
    const mailer = api.deps.notify.mailer
    const send = mailer.send.bind(mailer)
    let deaths = 1
    mailer.send = async (m) => {
      await send(m)
      // The mail left; the process dies before its row says so.
      if (deaths-- > 0) throw new Error('killed')
    }
    try {
      const w = (await withdraw(api, u, 300_000)).body.data
      await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
      await drain()
      api.clock.advance(10 * 60_000)
      await drain(3)
      const mails = mailsTo(u.email, 'Withdrawal failed')
      expect(mails).toHaveLength(2)
      expect(mails[1].messageId).toBe(mails[0].messageId)
    } finally {
      mailer.send = send
    }
  })

  it('410 drops the subscription', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    u.sub.script(410)
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    await drain()
    const list = await api.get<PushSubscriptionsData>('/v1/user/pushSubscriptions', { token: u.token })
    expect(list.body.data.subscriptions).toEqual([])
    const [d] = (await deliveriesOf(u.userId)).filter((r) => r.channel === 'push')
    expect(d.status).toBe('dropped')
  })

  it('a push service that hangs delays neither the same event’s e-mail nor another person’s push', async () => {
    const a = await subscribed({ balance: 1_000_000 })
    const b = await subscribed({ balance: 1_000_000 })
    await drain()
    a.sub.script('hang')
    for (const u of [a, b]) {
      const w = (await withdraw(api, u, 300_000)).body.data
      await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    }
    const runner = createDeliveryRunner(api.deps)
    await runner.pass()
    await push.waitFor(b.sub.name)
    await vi.waitFor(() => expect(mailsTo(a.email, 'Withdrawal failed')).toHaveLength(1))
    expect(push.received.filter((r) => r.subscription === a.sub.name)).toHaveLength(0)
    a.sub.release()
    await runner.idle()
  })
})

describe('preferences', () => {
  const prefs = (token: string) => api.get<NotifyPreferencesData>('/v1/user/notifyPreferences', { token })
  const set = (token: string, body: unknown) => api.post<NotifyPreferencesData>('/v1/user/setNotifyPreferences', body, { token })

  it('lists every kind, on by default, security locked; pushAmounts off', async () => {
    const u = await walletUser(api)
    const res = await prefs(u.token)
    expect(res.body.data.pushAmounts).toBe(false)
    expect(res.body.data.kinds.map((k) => [k.kind, k.push, k.email, k.locked])).toEqual([
      ['order_paid', true, true, false],
      ['order_offer', true, true, false],
      ['order_rejected', true, true, false],
      ['withdrawal_paid', true, true, false],
      ['withdrawal_failed', true, true, false],
      ['support', true, true, false],
      ['security', true, true, true],
    ])
  })

  it('off means nothing is sent', async () => {
    const u = await subscribed({ balance: 1_000_000 })
    await drain()
    const off = await set(u.token, { kinds: [{ kind: 'withdrawal_failed', push: false, email: false }] })
    expect(off.body.data.kinds.find((k) => k.kind === 'withdrawal_failed')).toMatchObject({ push: false, email: false })
    const w = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'Account closed' })
    await drain()
    expect((await deliveriesOf(u.userId)).filter((d) => d.kind === 'withdrawal_failed')).toEqual([])
    expect(mailsTo(u.email, 'Withdrawal failed')).toEqual([])
    expect(push.received.filter((r) => r.subscription === u.sub.name)).toEqual([])
  })

  it('security e-mail cannot be turned off (and a refused set changes nothing); its push can', async () => {
    const u = await walletUser(api)
    const one = await set(u.token, { kind: 'security', channel: 'email', on: false })
    expect(one.body).toMatchObject({ code: Refusals.NOTIFY_LOCKED.code, msg: Refusals.NOTIFY_LOCKED.msg })
    const whole = await set(u.token, {
      kinds: [
        { kind: 'order_paid', push: false, email: false },
        { kind: 'security', push: true, email: false },
      ],
    })
    expect(whole.body.code).toBe(Refusals.NOTIFY_LOCKED.code)
    expect((await prefs(u.token)).body.data.kinds.find((k) => k.kind === 'order_paid')).toMatchObject({ push: true, email: true })
    const pushOff = await set(u.token, { kind: 'security', channel: 'push', on: false })
    expect(pushOff.body.data.kinds.find((k) => k.kind === 'security')).toMatchObject({ push: false, email: true, locked: true })
  })
})

describe('one-click unsubscribe', () => {
  it('the token of an e-mail works without signing in; a forged one is refused', async () => {
    const u = await subscribed()
    const order = await sold(api, u.token)
    await ops(api).claim(order.id)
    await ops(api).complete(order.id)
    await drain()
    const [mail] = mailsTo(u.email, 'Order completed')
    const token = /\/unsubscribe\/([^>]+)>/.exec(mail.headers!['List-Unsubscribe'])![1]
    const info = await api.get<UnsubscribeData>(`/v1/notify/unsubscribeInfo?token=${encodeURIComponent(token)}`)
    expect(info.body.data).toEqual({
      kind: 'order_paid',
      label: 'Order paid',
      email: expect.stringMatching(/^w•••@/) as string,
      subscribed: true,
    })
    const done = await api.post<UnsubscribeData>('/v1/notify/unsubscribe', { token })
    expect(done.body.data.subscribed).toBe(false)
    expect((await api.post<UnsubscribeData>('/v1/notify/unsubscribe', { token })).body.code).toBe(200)
    const after = await api.get<NotifyPreferencesData>('/v1/user/notifyPreferences', { token: u.token })
    expect(after.body.data.kinds.find((k) => k.kind === 'order_paid')).toMatchObject({ push: true, email: false })

    const [body, sig] = token.split('.')
    const otherKind = Buffer.from(`${u.userId}:withdrawal_paid`).toString('base64url')
    for (const forged of [`${otherKind}.${sig}`, `${body}.${sig.slice(0, -2)}AA`, 'x', `${body}.${sig}.x`]) {
      const res = await api.post('/v1/notify/unsubscribe', { token: forged })
      expect(res.body).toMatchObject({ code: Refusals.UNSUBSCRIBE_TOKEN_INVALID.code, msg: Refusals.UNSUBSCRIBE_TOKEN_INVALID.msg })
    }
    const security = Buffer.from(`${u.userId}:security`).toString('base64url')
    expect((await api.get(`/v1/notify/unsubscribeInfo?token=${security}.${sig}`)).body.code).toBe(Refusals.UNSUBSCRIBE_TOKEN_INVALID.code)
  })
})

describe('push subscriptions', () => {
  it('names the device from its User-Agent, never answers the endpoint or keys, and removes by id', async () => {
    const u = await subscribed()
    const list = await api.get<PushSubscriptionsData>('/v1/user/pushSubscriptions', { token: u.token })
    expect(list.body.data.subscriptions).toHaveLength(1)
    expect(list.body.data.subscriptions[0].name).toMatch(/^Chrome on Android, added \d{1,2} [A-Z][a-z]{2}$/)
    expect(list.text).not.toContain(u.sub.keys.auth)
    expect(list.text).not.toContain('/push/')
    const id = list.body.data.subscriptions[0].id
    expect((await api.post('/v1/user/pushRemove', { id }, { token: u.token })).body).toMatchObject({
      code: 200,
      data: { subscriptions: [] },
    })
    expect((await api.post('/v1/user/pushRemove', { id }, { token: u.token })).body.code).toBe(Refusals.PUSH_SUBSCRIPTION_NOT_FOUND.code)
    const key = await api.get<{ publicKey: string }>('/v1/push/key')
    expect(key.body.data.publicKey).toBe(TEST_VAPID_KEYS.publicKey)
  })

  it('refuses an endpoint that is no push address and keys that are no keys', async () => {
    const u = await walletUser(api)
    const sub = push.subscription(`refused-${u.userId}`)
    const ftp = await api.post('/v1/user/pushSubscribe', { endpoint: 'ftp://push.example/x', keys: sub.keys }, { token: u.token })
    expect(ftp.body.code).toBe(Refusals.PUSH_ENDPOINT_REFUSED.code)
    const bad = await api.post(
      '/v1/user/pushSubscribe',
      { endpoint: sub.endpoint, keys: { p256dh: 'AAAA', auth: sub.keys.auth } },
      { token: u.token },
    )
    expect(bad.body.code).toBe(Refusals.PUSH_KEYS_INVALID.code)
  })
})

describe('bad input never answers 500', () => {
  it('every new call answers a clear refusal', async () => {
    const u = await walletUser(api)
    const cases: [string, unknown][] = [
      ['/v1/user/setNotifyPreferences', {}],
      ['/v1/user/setNotifyPreferences', { kind: 'nope', channel: 'push', on: true }],
      ['/v1/user/setNotifyPreferences', { kind: 'order_paid', channel: 'sms', on: true }],
      ['/v1/user/setNotifyPreferences', { kind: 'order_paid', channel: 'push', on: 'yes' }],
      ['/v1/user/setNotifyPreferences', { kind: 'order_paid', channel: 'push' }],
      ['/v1/user/setNotifyPreferences', { kinds: 'all' }],
      ['/v1/user/setNotifyPreferences', { pushAmounts: 1 }],
      ['/v1/user/pushSubscribe', {}],
      ['/v1/user/pushSubscribe', { endpoint: 'not a url', keys: { p256dh: 'a', auth: 'b' } }],
      ['/v1/user/pushSubscribe', { endpoint: 'https://push.example/x', keys: { p256dh: 'a b', auth: 'b' } }],
      ['/v1/user/pushSubscribe', { endpoint: 'https://push.example/x', keys: 'k' }],
      ['/v1/user/pushSubscribe', { endpoint: 'https://push.example/x', keys: { p256dh: 'a', auth: 'b' }, userAgent: 7 }],
      ['/v1/user/pushRemove', {}],
      ['/v1/user/pushRemove', { id: '../x' }],
      ['/v1/notify/unsubscribe', {}],
      ['/v1/notify/unsubscribe', { token: 5 }],
      ['/v1/notify/unsubscribe', { token: 'x'.repeat(600) }],
    ]
    for (const [path, body] of cases) {
      const res = await api.post(path, body, { token: u.token })
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBeLessThan(500)
      expect(res.body.code, `${path} ${JSON.stringify(body)}`).not.toBe(200)
      expect(res.body.msg).toMatch(/\w/)
    }
    for (const q of ['', '?token=', `?token=${'y'.repeat(600)}`, '?token=a.b']) {
      const res = await api.get(`/v1/notify/unsubscribeInfo${q}`)
      expect(res.status).toBeLessThan(500)
      expect(res.body.code).not.toBe(200)
    }
    expect((await api.get('/v1/user/notifyPreferences')).status).toBe(401)
    expect((await api.get('/v1/user/notifySettings')).status).toBe(401)
  })

  it('the settings screen reads the switches and the devices in one answer', async () => {
    const u = await subscribed()
    const prefs = await api.get<NotifyPreferencesData>('/v1/user/notifyPreferences', { token: u.token })
    const subs = await api.get<PushSubscriptionsData>('/v1/user/pushSubscriptions', { token: u.token })
    const settings = await api.get<NotifyPreferencesData & PushSubscriptionsData>('/v1/user/notifySettings', { token: u.token })
    expect(settings.body.data).toEqual({ ...prefs.body.data, ...subs.body.data })
    expect(settings.body.data.subscriptions).toHaveLength(1)
  })
})
