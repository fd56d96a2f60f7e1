import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as settings from '~/routes/account_.notifications'
import * as push from '~/routes/account_.push'
import * as unsubscribe from '~/routes/unsubscribe.$token'
import { unsubscribeToken } from '../../api/services/notify/unsubscribe-token'
import { loggedPath } from '../../server/log-path'
import { isCrossSiteMutation, isOneClickUnsubscribe } from '../../server/request-guard'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { call, type CookieJar, expectRedirect, flashedToast, jsonOf, load, makeRequest, signedInJar, submit } from '../support/web'

/**
 * Notification settings, the push opt-in's route and the unsubscribe link (issue 27), through their
 * loaders and actions with real Requests against the real api.
 */
const api = useTestApi()

type Pref = { kind: string; label: string; push: boolean; email: boolean; locked: boolean }
type Page = { kinds: Pref[]; pushAmounts: boolean; devices: { id: string; name: string; lastUsed: string }[] }

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

async function person() {
  const email = newEmail('notify')
  const { user, token } = await seedUser(api, { email })
  return { user, email, jar: await signedInJar(token) }
}

const pageOf = async (jar: CookieJar) => {
  const res = await load(settings.loader, '/account/notifications', jar)
  expect(res.status).toBe(200)
  return jsonOf<Page>(res)
}
const prefOf = (page: Page, kind: string) => page.kinds.find((k) => k.kind === kind)!

/** The whole form as the page posts it without JavaScript: every box ticked as in `page`, changed by `change`. */
function wholeForm(page: Page, change: Record<string, boolean> = {}) {
  const form: Record<string, string> = { intent: 'save' }
  for (const k of page.kinds) {
    if (change[`${k.kind}.push`] ?? k.push) form[`${k.kind}.push`] = 'on'
    if (change[`${k.kind}.email`] ?? k.email) form[`${k.kind}.email`] = 'on'
  }
  if (change.pushAmounts ?? page.pushAmounts) form.pushAmounts = 'on'
  return form
}

/** What PushSubscription.toJSON() gives: a P-256 public key and a 16-byte secret. */
function browserSubscription() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    endpoint: `http://127.0.0.1:9/push/${randomBytes(8).toString('hex')}`,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }
}

function subscribeFrom(jar: CookieJar, userAgent: string, form = browserSubscription()) {
  return call(push.action, makeRequest('/account/push', { form, jar, headers: { 'User-Agent': userAgent } }), {}, jar)
}

describe('the guard', () => {
  it('sends a visitor to sign in, for the page, its form and the push route', async () => {
    expect(await load(settings.loader, '/account/notifications')).toHaveRedirect('/login?redirectTo=%2Faccount%2Fnotifications')
    expect(await submit(settings.action, '/account/notifications', { intent: 'save' })).toHaveRedirect(/^\/login/)
    expect(await load(push.loader, '/account/push')).toHaveRedirect(/^\/login/)
    expect(await submit(push.action, '/account/push', browserSubscription())).toHaveRedirect(/^\/login/)
  })
})

describe('preferences', () => {
  it('lists every kind with its label, security e-mail locked on', async () => {
    const { jar } = await person()
    const page = await pageOf(jar)
    expect(page.kinds.map((k) => k.kind)).toEqual([
      'order_paid',
      'order_offer',
      'order_rejected',
      'withdrawal_paid',
      'withdrawal_failed',
      'support',
      'security',
    ])
    expect(prefOf(page, 'security')).toMatchObject({ locked: true, email: true })
    expect(page.kinds.filter((k) => k.locked).map((k) => k.kind)).toEqual(['security'])
    expect(page.devices).toEqual([])
  })

  it('without JavaScript: one post saves the whole form, a box not ticked is off; back to the page with a toast', async () => {
    const { jar } = await person()
    const before = await pageOf(jar)
    const res = await submit(
      settings.action,
      '/account/notifications',
      wholeForm(before, { 'order_paid.email': false, 'withdrawal_paid.push': false, pushAmounts: true }),
      jar,
    )
    expectRedirect(res, '/account/notifications')
    expect(await flashedToast(res)).toEqual({ type: 'success', message: 'Notification settings saved' })
    const after = await pageOf(jar)
    expect(prefOf(after, 'order_paid')).toMatchObject({ email: false, push: prefOf(before, 'order_paid').push })
    expect(prefOf(after, 'withdrawal_paid')).toMatchObject({ push: false, email: prefOf(before, 'withdrawal_paid').email })
    expect(after.pushAmounts).toBe(true)
    expect(prefOf(after, 'security').email).toBe(true)
  })

  it('with JavaScript: one switch a post, answered with its toast and no redirect', async () => {
    const { jar } = await person()
    const off = await submit(
      settings.action,
      '/account/notifications',
      { intent: 'switch', kind: 'order_offer', channel: 'email', on: 'false', label: 'Lower offer by e-mail' },
      jar,
    )
    expect(off.status).toBe(200)
    expect((await jsonOf(off)).toast).toMatchObject({ type: 'success', message: 'Lower offer by e-mail: off' })
    expect(prefOf(await pageOf(jar), 'order_offer').email).toBe(false)
    const on = await submit(
      settings.action,
      '/account/notifications',
      { intent: 'amounts', on: 'true', label: 'Amounts on the lock screen' },
      jar,
    )
    expect((await jsonOf(on)).toast).toMatchObject({ type: 'success', message: 'Amounts on the lock screen: on' })
    expect((await pageOf(jar)).pushAmounts).toBe(true)
  })

  it('security e-mail cannot be turned off: the form always sends it, a forged post gets the refusal and changes nothing', async () => {
    const { jar } = await person()
    const before = await pageOf(jar)
    const forged = wholeForm(before, { 'order_paid.push': !prefOf(before, 'order_paid').push })
    delete forged['security.email']
    const res = await submit(settings.action, '/account/notifications', forged, jar)
    expectRedirect(res, '/account/notifications')
    expect(await flashedToast(res)).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Security e-mails cannot be turned off'),
    })
    expect(await pageOf(jar)).toEqual(before)

    const one = await submit(
      settings.action,
      '/account/notifications',
      { intent: 'switch', kind: 'security', channel: 'email', on: 'false' },
      jar,
    )
    expect(one.status).toBe(400)
    expect((await jsonOf(one)).toast).toMatchObject({
      type: 'error',
      message: expect.stringContaining('Security e-mails cannot be turned off'),
    })
    expect(prefOf(await pageOf(jar), 'security').email).toBe(true)
  })

  it('bad input is a message, never a 500, and changes nothing', async () => {
    const { jar } = await person()
    const before = await pageOf(jar)
    const forms: Record<string, string>[] = [
      { intent: 'switch', kind: 'nope', channel: 'push', on: 'true' },
      { intent: 'switch', kind: 'order_paid', channel: 'fax', on: 'true' },
      { intent: 'switch' },
      { intent: 'amounts' },
      { intent: 'remove' },
      { intent: 'remove', id: 'x'.repeat(5000) },
      { intent: 'remove', id: '../../etc' },
      { intent: 'whatever', 'order_paid.push': 'on' },
      { __intent__: 'x' },
    ]
    for (const form of forms) {
      const res = await submit(settings.action, '/account/notifications', form, jar)
      expect(res.status, JSON.stringify(form)).toBeLessThan(500)
    }
    expect(await pageOf(jar)).toEqual(before)
  })
})

describe('push on this device', () => {
  it('gives the VAPID key to the opt-in; the subscription is forwarded with the User-Agent, which names the device', async () => {
    const { jar } = await person()
    const key = await load(push.loader, '/account/push', jar)
    expect(key.status).toBe(200)
    expect((await jsonOf(key)).publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/)

    const res = await subscribeFrom(jar, ANDROID_CHROME)
    expect(res.status).toBe(200)
    const reply = await jsonOf(res)
    expect(reply.device).toMatch(/^Chrome on Android, added \d{1,2} [A-Z][a-z]{2}$/)
    expect(reply.toast).toMatchObject({ type: 'success', message: `Push is on for ${reply.device}` })
    // The keys never come back.
    expect(JSON.stringify(reply)).not.toMatch(/p256dh|auth"/)

    const page = await pageOf(jar)
    expect(page.devices).toEqual([{ id: expect.any(String), name: reply.device, lastUsed: 'No push sent yet' }])
  })

  it('keys a browser never makes are refused with the api’s words, never 500', async () => {
    const { jar } = await person()
    for (const form of [
      { endpoint: '', p256dh: '', auth: '' },
      { endpoint: 'not a url', p256dh: 'x', auth: 'y' },
      { ...browserSubscription(), p256dh: 'AAAA' },
      { ...browserSubscription(), endpoint: 'ftp://push.example/1' },
      {},
    ]) {
      const res = await subscribeFrom(jar, ANDROID_CHROME, form as never)
      expect(res.status, JSON.stringify(form)).toBe(400)
      expect((await jsonOf(res)).error).toEqual(expect.any(String))
    }
    expect((await pageOf(jar)).devices).toEqual([])
  })

  it('lists own devices; Remove posts, redirects back with a toast, and the device is gone; another’s id is refused', async () => {
    const a = await person()
    const b = await person()
    await subscribeFrom(a.jar, ANDROID_CHROME)
    await subscribeFrom(a.jar, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')
    const [first, second] = (await pageOf(a.jar)).devices
    expect([first.name, second.name].sort()).toEqual([
      expect.stringMatching(/^Chrome on Android/),
      expect.stringMatching(/^Firefox on Windows/),
    ])

    const stranger = await submit(settings.action, '/account/notifications', { intent: 'remove', id: first.id }, b.jar)
    expectRedirect(stranger, '/account/notifications')
    expect(await flashedToast(stranger)).toMatchObject({ type: 'error' })
    expect((await pageOf(a.jar)).devices).toHaveLength(2)

    const res = await submit(settings.action, '/account/notifications', { intent: 'remove', id: first.id }, a.jar)
    expectRedirect(res, '/account/notifications')
    expect(await flashedToast(res)).toEqual({ type: 'success', message: 'Device removed: it gets no more push notifications' })
    expect((await pageOf(a.jar)).devices.map((d) => d.id)).toEqual([second.id])
  })
})

describe('unsubscribe link', () => {
  const tokenFor = (userId: string, kind = 'withdrawal_paid') => unsubscribeToken(api.deps.config.selling.codesKey, userId, kind as never)
  const path = (token: string) => `/unsubscribe/${token}`
  const oneClick = (token: string, headers: Record<string, string> = {}) =>
    call(unsubscribe.action, makeRequest(path(token), { form: { 'List-Unsubscribe': 'One-Click' }, headers }), { token })

  it('GET says what would stop and for whom; the POST (no cookie) does it and says Done; again is still Done', async () => {
    const { user, email, jar } = await person()
    const token = tokenFor(user.id)
    const asked = await call(unsubscribe.loader, makeRequest(path(token)), { token })
    expect(asked.status).toBe(200)
    const info = (await jsonOf(asked)).info
    expect(info).toMatchObject({ label: expect.any(String), subscribed: true })
    expect(info.email).toMatch(new RegExp(`^${email[0]}.*@example\\.com$`))
    expect(info.email).not.toBe(email)
    expect(prefOf(await pageOf(jar), 'withdrawal_paid').email).toBe(true)

    const done = await oneClick(token)
    expect(done.status).toBe(200)
    expect(done.headers.get('Set-Cookie')).toBeNull()
    expect((await jsonOf(done)).info).toMatchObject({ subscribed: false })
    expect(prefOf(await pageOf(jar), 'withdrawal_paid')).toMatchObject({ email: false })
    expect(prefOf(await pageOf(jar), 'order_paid').email).toBe(true)

    const again = await oneClick(token)
    expect(again.status).toBe(200)
    expect((await jsonOf(await call(unsubscribe.loader, makeRequest(path(token)), { token }))).info.subscribed).toBe(false)
  })

  it('a mail client’s one-click POST from another site passes the cross-site guard at this path only', async () => {
    const { user, jar } = await person()
    const token = tokenFor(user.id, 'order_paid')
    const crossSite = { method: 'POST', host: 'localhost:3000', origin: 'https://mail.example', secFetchSite: 'cross-site' }
    expect(isCrossSiteMutation(crossSite)).toBe(true)
    expect(isOneClickUnsubscribe({ method: 'POST', path: path(token) })).toBe(true)
    for (const other of ['/unsubscribe', `/unsubscribe/${token}/x`, '/account/notifications', '/logout', `/x/unsubscribe/${token}`])
      expect(isOneClickUnsubscribe({ method: 'POST', path: other }), other).toBe(false)
    const res = await oneClick(token, { Origin: 'https://mail.example', 'Sec-Fetch-Site': 'cross-site' })
    expect(res.status).toBe(200)
    expect(prefOf(await pageOf(jar), 'order_paid').email).toBe(false)
  })

  it('takes only the one-click body: anything else at this path changes nothing', async () => {
    const { user, jar } = await person()
    const token = tokenFor(user.id, 'order_paid')
    const forms: Record<string, string>[] = [
      {},
      { 'List-Unsubscribe': 'Two-Clicks' },
      { 'List-Unsubscribe': 'One-Click', intent: 'save', 'security.email': '' },
    ]
    for (const form of forms) {
      const res = await call(unsubscribe.action, makeRequest(path(token), { form }), { token })
      expect(res.status).toBe(400)
      expect((await jsonOf(res)).refused).toBe('Use the button on this page to unsubscribe.')
    }
    const json = await call(
      unsubscribe.action,
      new Request(`http://localhost:3000${path(token)}`, {
        method: 'POST',
        body: '{"token":1}',
        headers: { 'Content-Type': 'application/json' },
      }),
      { token },
    )
    expect(json.status).toBe(400)
    expect(prefOf(await pageOf(jar), 'order_paid').email).toBe(true)
  })

  it('a forged, cut or locked-kind token shows the api’s refusal (never 500) and changes nothing', async () => {
    const { user, jar } = await person()
    const good = tokenFor(user.id, 'order_paid')
    const forged = [
      `${good.slice(0, -2)}xx`,
      good.split('.')[0],
      'nonsense',
      tokenFor(user.id, 'security'),
      'a'.repeat(600),
      '%00',
      unsubscribeToken('another key', user.id, 'order_paid'),
    ]
    for (const token of forged) {
      const seen = await call(unsubscribe.loader, makeRequest(path(encodeURIComponent(token))), { token })
      expect(seen.status, token).toBe(400)
      expect((await jsonOf(seen)).refused, token).toMatch(/^This unsubscribe link is not valid/)
      const posted = await oneClick(token)
      expect(posted.status, token).toBe(400)
      expect((await jsonOf(posted)).refused, token).toMatch(/^This unsubscribe link is not valid/)
    }
    expect(prefOf(await pageOf(jar), 'order_paid').email).toBe(true)
  })

  it('never writes the token in a log path', () => {
    const token = unsubscribeToken('k', 'a-user-id', 'order_paid')
    expect(loggedPath(`/unsubscribe/${token}`)).toBe('/unsubscribe/:token')
    expect(loggedPath('/unsubscribe/short.sig')).toBe('/unsubscribe/:token')
  })
})
