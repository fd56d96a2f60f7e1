import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import * as root from '~/root'
import * as home from '~/routes/_index'
import * as account from '~/routes/account'
import * as changePin from '~/routes/change-pin'
import * as history from '~/routes/history'
import * as notification from '~/routes/notification'
import * as setPin from '~/routes/set-pin'
import * as wallet from '~/routes/wallet._index'
import { transportMessages } from '~/utils/messages'
import { seedUser } from '../support/api'
import { closedPort } from '../support/fault-upstream'
import { newEmail, useTestApi } from '../support/kit'
import { admin, adjust, PIN, walletInfo, walletUser, withdraw } from '../support/wallet'
import { jsonOf, load, loadDocument, signedInJar, submit } from '../support/web'
import { startWeb } from './web-app'

/** The wallet screen, Home's balance card, Account's wallet rows and the PIN screens, against the real api. */
const api = useTestApi()

describe('/wallet', () => {
  it('says what is available, what is on hold and what is on its way; the log newest first', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 300_000)).body.data
    const data = await jsonOf(await load(wallet.loader, '/wallet', await signedInJar(u.token)))
    expect(data.info).toMatchObject({ balance: 700_000, frozen: 300_000, currency: 'NGN', hasPin: true })
    expect(data.log.list.map((e: { type: string }) => e.type)).toEqual(['withdraw', 'adjustment'])
    expect(data.log.list[0]).toMatchObject({ amount: -300_000, balanceAfter: 700_000, refType: 'withdrawal', refId: w.id })
    expect(data.onTheirWay).toEqual([expect.objectContaining({ id: w.id, received: 295_000, expectedBy: w.expectedBy })])
  })

  it('a paid withdrawal leaves the hold and is no longer on its way; a failed one comes back with its reason', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const paid = (await withdraw(api, u, 200_000)).body.data
    const failed = (await withdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-1' })
    await admin(api).post('/admin/withdraw/update', { id: failed.id, status: 'failed', reason: 'Account name mismatch' })
    const data = await jsonOf(await load(wallet.loader, '/wallet', await signedInJar(u.token)))
    expect(data.info).toMatchObject({ balance: 800_000, frozen: 0 })
    expect(data.onTheirWay).toEqual([])
    expect(data.log.list.slice(0, 2)).toMatchObject([
      { type: 'withdraw_refund', amount: 300_000, refId: failed.id, note: 'Account name mismatch' },
      { type: 'withdraw_paid', amount: 0, frozenChange: -200_000, refId: paid.id },
    ])
  })

  it('one payout reads as one thing: the withdrawal and its payout carry the fee and what reached the bank, as the receipt does', async () => {
    const u = await walletUser(api, { balance: 3_000_000 })
    const paid = (await withdraw(api, u, 2_000_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-2' })
    const data = await jsonOf(await load(wallet.loader, '/wallet', await signedInJar(u.token)))
    expect(data.log.list.slice(0, 2)).toMatchObject([
      { type: 'withdraw_paid', refId: paid.id, withdrawal: { fee: paid.fee, received: paid.received } },
      { type: 'withdraw', amount: -2_000_000, refId: paid.id, withdrawal: { fee: paid.fee, received: paid.received } },
    ])
    expect(paid.received).toBe(2_000_000 - paid.fee)
    // Another person's entries never carry this withdrawal.
    expect(data.log.list.find((e: { type: string }) => e.type === 'adjustment').withdrawal).toBeNull()
  })

  it('pages by ?page=N, 20 to a page; anything else is the first page', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('pages') })
    for (let i = 1; i <= 23; i++) await adjust(api, user.id, 1_000 * i, `credit ${i}`)
    const jar = await signedInJar(token)
    const first = await jsonOf(await load(wallet.loader, '/wallet', jar))
    expect(first.log).toMatchObject({ total: 23, pageNum: 1, pageSize: 20 })
    expect(first.log.list[0].note).toBe('credit 23')
    const second = await jsonOf(await load(wallet.loader, '/wallet?page=2', jar))
    expect(second.log.list.map((e: { note: string }) => e.note)).toEqual(['credit 3', 'credit 2', 'credit 1'])
    for (const junk of ['abc', '-1', '0', '1e3', '2.5', 'x'.repeat(500)]) {
      expect((await jsonOf(await load(wallet.loader, `/wallet?page=${junk}`, jar))).log.pageNum).toBe(1)
    }
    const far = await load(wallet.loader, '/wallet?page=999999', jar)
    expect(far.status).toBe(200)
    expect((await jsonOf(far)).log).toMatchObject({ list: [], total: 23 })
  })

  it('a new wallet: nothing yet, no PIN', async () => {
    const { token } = await seedUser(api, { email: newEmail('empty') })
    const data = await jsonOf(await load(wallet.loader, '/wallet', await signedInJar(token)))
    expect(data.info).toMatchObject({ balance: 0, frozen: 0, hasPin: false })
    expect(data.log).toMatchObject({ list: [], total: 0 })
  })
})

describe('Home and Account', () => {
  it('Home shows a signed-in person’s balance and on hold from the root’s user index; no wallet call at all', async () => {
    const u = await walletUser(api, { balance: 500_000 })
    await withdraw(api, u, 200_000)
    const jar = await signedInJar(u.token)
    const before = api.logs.filter((l) => l.includes('/v1/wallet/info')).length
    expect(await jsonOf(await load(home.loader, '/', jar))).toHaveProperty('featured')
    expect((await jsonOf(await load(root.loader, '/', jar))).user.wallet).toMatchObject({
      balance: 300_000,
      frozen: 200_000,
      currency: 'NGN',
    })
    expect((await jsonOf(await load(home.loader, '/'))).featured).not.toBeNull()
    expect(api.logs.filter((l) => l.includes('/v1/wallet/info')).length).toBe(before)
  })

  it('Account lists the wallet, the bank accounts and whether a PIN is set — from the root’s one user-index call', async () => {
    const u = await walletUser(api, { balance: 150_000 })
    const jar = await signedInJar(u.token)
    const before = api.logs.filter((l) => l.includes('/v1/wallet/info')).length
    // The screen's own data is its tasks (they come with the same user index); the wallet is the root's.
    expect((await jsonOf(await load(account.loader, '/account', jar))).tasks.map((t: { id: string }) => t.id)).toContain('set_pin')
    expect((await jsonOf(await load(root.loader, '/account', jar))).user.wallet).toEqual({
      balance: 150_000,
      frozen: 0,
      currency: 'NGN',
      hasPin: true,
      bankCardCount: 1,
      timeZone: 'Africa/Lagos',
      resolvesNames: false,
    })
    expect(api.logs.filter((l) => l.includes('/v1/wallet/info')).length).toBe(before)
  })

  it('History and Notifications read the time zone from the user index the root asks anyway: no wallet call of their own', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const before = api.logs.filter((l) => l.includes('/v1/wallet/')).length
    const [, page] = await loadDocument([root.loader, history.loader], '/history', jar)
    expect((await jsonOf(page)).timeZone).toBe('Africa/Lagos')
    await loadDocument([root.loader, notification.loader], '/notification', jar)
    expect(api.logs.filter((l) => l.includes('/v1/wallet/')).length).toBe(before)
  })

  it('the Wallet screen is one call: balances, activity and what is on its way', async () => {
    const u = await walletUser(api, { balance: 500_000 })
    const jar = await signedInJar(u.token)
    const before = api.logs.length
    const [, page] = await loadDocument([root.loader, wallet.loader], '/wallet', jar)
    expect((await jsonOf(page)).info).toMatchObject({ balance: 500_000 })
    const calls = api.logs.slice(before).filter((l) => /\/v1\//.test(l))
    expect(calls.filter((l) => !l.includes('/v1/user/index'))).toEqual([expect.stringContaining('/v1/wallet/overview')])
  })

  describe('when the api is down', () => {
    let saved: string | undefined
    beforeAll(async () => {
      saved = process.env.API_BASE_URL
      process.env.API_BASE_URL = await closedPort()
    })
    afterAll(() => {
      process.env.API_BASE_URL = saved
    })

    it('Home and Account still render (without the figures); the wallet answers 503 with the catalogue message', async () => {
      const jar = await signedInJar('some-token')
      expect(await jsonOf(await load(home.loader, '/', jar))).toEqual({ featured: null, openOrders: null, tasks: [] })
      expect(await jsonOf(await load(account.loader, '/account', jar))).toEqual({ tasks: [] })
      const res = await load(wallet.loader, '/wallet', jar)
      expect(res.status).toBe(503)
      expect(await jsonOf(res)).toEqual({ message: transportMessages.refused })
    })
  })
})

describe('/set-pin', () => {
  it('sets the PIN typed twice, then goes back to redirectTo (same origin only) with a toast', async () => {
    const { token } = await seedUser(api, { email: newEmail('setpin') })
    const jar = await signedInJar(token)
    // The form's native constraints come with the page, from the schema (decision 059).
    expect(await jsonOf(await load(setPin.loader, '/set-pin?redirectTo=%2Fwallet%2Fadd-bank-card', jar))).toEqual({
      redirectTo: '/wallet/add-bank-card',
      formConstraints: {
        'set-pin': expect.objectContaining({
          pin: expect.objectContaining({ required: true }),
          confirmPin: expect.objectContaining({ required: true }),
        }),
      },
    })
    const res = await submit(setPin.action, '/set-pin', { pin: PIN, confirmPin: PIN, redirectTo: '/wallet/add-bank-card' }, jar)
    expect(res).toHaveRedirect('/wallet/add-bank-card')
    await expect(res).toSendToast({ type: 'success', message: 'Withdrawal PIN set' })
    expect((await walletInfo(api, token)).hasPin).toBe(true)
    // Now there is a PIN: Set PIN sends the person to Change PIN, the way back kept.
    expect(await load(setPin.loader, '/set-pin?redirectTo=%2Fwallet', jar)).toHaveRedirect('/change-pin?redirectTo=%2Fwallet')
    const again = await submit(setPin.action, '/set-pin', { pin: '739251', confirmPin: '739251' }, jar)
    expect(again).toHaveRedirect('/change-pin')
    await expect(again).toSendToast({ type: 'info' })
  })

  it.each(['//evil.example', 'https://evil.example/x', '/\\evil.example', ''])(
    'a foreign redirectTo %j goes to /wallet',
    async (target) => {
      const { token } = await seedUser(api, { email: newEmail('setpin') })
      const res = await submit(setPin.action, '/set-pin', { pin: PIN, confirmPin: PIN, redirectTo: target }, await signedInJar(token))
      expect(res).toHaveRedirect('/wallet')
    },
  )

  it.each([
    ['000000', 'pin', 'Choose a PIN that is not one digit repeated'],
    ['123456', 'pin', 'Choose a PIN that is not a run of digits like 123456'],
    ['987654', 'pin', 'Choose a PIN that is not a run of digits like 123456'],
    ['121212', 'pin', 'This PIN is too common. Choose another one'],
    ['12345', 'pin', 'PIN is 6 digits'],
    ['abcdef', 'pin', 'PIN is 6 digits'],
  ])('refuses %s with the contract’s reason, sets nothing and never echoes it', async (pin, field, message) => {
    const { token } = await seedUser(api, { email: newEmail('weak') })
    const res = await submit(setPin.action, '/set-pin', { pin, confirmPin: pin }, await signedInJar(token))
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error[field]).toEqual([message])
    // Not in the form's values (the reason may quote a PIN like 123456, never the one typed back).
    expect(reply.result.initialValue).toEqual({})
    expect((await walletInfo(api, token)).hasPin).toBe(false)
  })

  it('refuses two different PINs', async () => {
    const { token } = await seedUser(api, { email: newEmail('mismatch') })
    const res = await submit(setPin.action, '/set-pin', { pin: PIN, confirmPin: '739251' }, await signedInJar(token))
    const reply = await jsonOf(res)
    expect(reply.result.error.confirmPin).toEqual(['The two PINs do not match'])
    expect(reply.refused).toEqual(expect.arrayContaining(['pin', 'confirmPin']))
    expect(JSON.stringify(reply)).not.toMatch(/204816|739251/)
    expect((await walletInfo(api, token)).hasPin).toBe(false)
  })
})

describe('/change-pin', () => {
  it('without a PIN sends the person to Set PIN', async () => {
    const { token } = await seedUser(api, { email: newEmail('nopin') })
    expect(await load(changePin.loader, '/change-pin', await signedInJar(token))).toHaveRedirect('/set-pin')
  })

  it('changes with the old PIN; a wrong one says the tries left, and the screen shows them', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const wrong = await submit(
      changePin.action,
      '/change-pin',
      { intent: 'change', oldPin: '999998', pin: '739251', confirmPin: '739251' },
      jar,
    )
    expect(wrong.status).toBe(400)
    const reply = await jsonOf(wrong)
    // Once, beside the current PIN, and only that field starts empty again.
    expect(reply.result.error.oldPin).toEqual(['Wrong PIN. 4 tries left before PIN actions are locked for 30 minutes'])
    expect(reply.result.error['']).toBeUndefined()
    expect(reply.refused).toEqual(['oldPin'])
    expect(JSON.stringify(reply)).not.toMatch(/999998|739251/)
    expect((await jsonOf(await load(changePin.loader, '/change-pin', jar))).pin).toMatchObject({ triesLeft: 4, lockedUntil: null })

    const ok = await submit(changePin.action, '/change-pin', { intent: 'change', oldPin: PIN, pin: '739251', confirmPin: '739251' }, jar)
    expect(ok).toHaveRedirect('/wallet')
    await expect(ok).toSendToast({ type: 'success', message: 'Withdrawal PIN changed' })
    expect((await api.post('/v1/user/setPin', { oldPin: '739251', pin: '846201' }, { token: u.token })).body.code).toBe(200)
  })

  it('five wrong PINs lock it; the screen says until when', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    let reply
    for (let i = 0; i < 5; i++) {
      reply = await jsonOf(
        await submit(changePin.action, '/change-pin', { intent: 'change', oldPin: '999998', pin: '739251', confirmPin: '739251' }, jar),
      )
    }
    expect(reply.result.error['']).toEqual([expect.stringMatching(/^Too many wrong PINs\. PIN actions are locked until \d\d:\d\d$/)])
    const screen = await jsonOf(await load(changePin.loader, '/change-pin', jar))
    expect(screen.pin.lockedUntil).toBe(api.clock.now() + 30 * 60_000)
    expect(screen.timeZone).toBe('Africa/Lagos')
    // The wallet says it in the same words, written on the server (no refusal table in its bundle).
    const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit' }).format(
      screen.pin.lockedUntil,
    )
    const walletScreen = await jsonOf(await load(wallet.loader, '/wallet', jar))
    expect(walletScreen.pinLocked).toBe(`Too many wrong PINs. PIN actions are locked until ${clock}`)
    expect(
      (await jsonOf(await load(wallet.loader, '/wallet', await signedInJar((await walletUser(api, { card: false })).token)))).pinLocked,
    ).toBeNull()
  })

  it('Forgot PIN: a code to the person’s own address, then a new PIN; withdrawals wait 24 hours', async () => {
    const u = await walletUser(api, { balance: 500_000 })
    const jar = await signedInJar(u.token)
    expect((await jsonOf(await load(changePin.loader, '/change-pin?mode=reset', jar))).mode).toBe('reset')
    const sent = await submit(changePin.action, '/change-pin?mode=reset', { intent: 'send-code', email: 'someone.else@example.com' }, jar)
    expect(await jsonOf(sent)).toMatchObject({ mode: 'reset', step: 'verify', toast: { type: 'success' } })
    const verifyCode = api.lastCode(u.email, CodeType.RESET_PIN)
    expect(api.mails.some((m) => m.to === 'someone.else@example.com')).toBe(false)

    const mismatch = await jsonOf(
      await submit(changePin.action, '/change-pin?mode=reset', { intent: 'reset', verifyCode, pin: '739251', confirmPin: '739252' }, jar),
    )
    expect(mismatch).toMatchObject({ mode: 'reset', step: 'verify', result: { error: { confirmPin: ['The two PINs do not match'] } } })

    const badCode = await jsonOf(
      await submit(
        changePin.action,
        '/change-pin?mode=reset',
        { intent: 'reset', verifyCode: '000000', pin: '739251', confirmPin: '739251' },
        jar,
      ),
    )
    expect(badCode).toMatchObject({
      step: 'verify',
      refused: ['verifyCode'],
      result: { error: { '': ['The verification code is wrong or has expired'] } },
    })
    expect(JSON.stringify(badCode)).not.toMatch(/739251|000000/)

    const res = await submit(
      changePin.action,
      '/change-pin?mode=reset',
      { intent: 'reset', verifyCode, pin: '739251', confirmPin: '739251' },
      jar,
    )
    expect(res).toHaveRedirect('/wallet')
    await expect(res).toSendToast({ type: 'success', message: 'New PIN set. For your safety, withdrawals open again in 24 hours.' })
    expect((await walletInfo(api, u.token)).pin.withdrawBlockedUntil).toBe(api.clock.now() + 24 * 3_600_000)
  })
})

describe("Account's Withdrawal PIN row (the real render over HTTP)", () => {
  /** The value the row shows, where it leads. */
  const pinRow = (html: string) => {
    const row = /<a[^>]*href="([^"]*)"[^>]*>(?:(?!<\/a>).)*?Withdrawal PIN(?:(?!<\/a>).)*?<\/a>/s.exec(html.replace(/<!-- -->/g, ''))
    return { href: row?.[1]?.replace(/&amp;/g, '&'), value: /class="cl-row__value"[^>]*>([^<]*)</.exec(row?.[0] ?? '')?.[1] }
  }

  it('says the state of the PIN, as the other rows do ("Not set" leads to setting one, "Set" to changing it)', async () => {
    const web = await startWeb()
    try {
      for (const [pin, expected] of [
        [null, { value: 'Not set', href: '/set-pin?redirectTo=%2Faccount' }],
        [PIN, { value: 'Set', href: '/change-pin?redirectTo=%2Faccount' }],
      ] as const) {
        const u = await walletUser(api, { pin, card: false })
        const cookie = (await signedInJar(u.token)).header()
        expect(pinRow(await (await fetch(`${web.url}/account`, { headers: { cookie } })).text())).toEqual(expected)
      }
    } finally {
      await web.close()
    }
  })
})
