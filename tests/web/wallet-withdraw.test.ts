import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import * as changePin from '~/routes/change-pin'
import * as setPin from '~/routes/set-pin'
import * as addBankCard from '~/routes/wallet.add-bank-card'
import * as bankCards from '~/routes/wallet.bank-cards'
import * as withdraw from '~/routes/wallet.withdraw'
import * as success from '~/routes/wallet.withdraw-success'
import * as detail from '~/routes/wallet.withdraw_.$id'
import { closedPort } from '../support/fault-upstream'
import { useTestApi } from '../support/kit'
import { admin, PIN, walletInfo, walletUser, withdraw as apiWithdraw, type WalletUser } from '../support/wallet'
import { call, jsonOf, load, loadContextFor, makeRequest, signedInJar, submit } from '../support/web'

/** /wallet/withdraw, its success page and the detail, through their loaders and actions, against the real api. */
const api = useTestApi()

async function screenOf(u: WalletUser) {
  const jar = await signedInJar(u.token)
  const data = await jsonOf(await load(withdraw.loader, '/wallet/withdraw', jar))
  return {
    jar,
    data,
    form: (patch: Record<string, string> = {}) => ({
      intent: 'withdraw',
      bankCardId: u.card!.id,
      amount: '3,000',
      pin: PIN,
      requestId: data.requestId,
      ...patch,
    }),
  }
}

describe('/wallet/withdraw', () => {
  it("works out the form's native constraints once: every page gives the same answer, whatever its limits", async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const jar = await signedInJar(u.token)
    const page = async () => {
      const request = makeRequest('/wallet/withdraw', { jar })
      return (await withdraw.loader({ request, params: {}, context: loadContextFor(request) } as never)) as {
        formConstraints: Record<string, Record<string, { required?: boolean; maxLength?: number }>>
      }
    }
    const first = await page()
    const again = await page()
    expect(again.formConstraints.withdraw).toBe(first.formConstraints.withdraw)
    expect(first.formConstraints.withdraw!.amount).toMatchObject({ required: true, maxLength: 40 })
  })

  it('gives the form a fresh request id and what the summary needs', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { data } = await screenOf(u)
    expect(data.requestId).toMatch(/^[0-9a-f]{32}$/)
    expect((await screenOf(u)).data.requestId).not.toBe(data.requestId)
    expect(data.info).toMatchObject({ balance: 1_000_000, limits: { min: 100_000, fee: 5_000, payoutHours: 24, timeZone: 'Africa/Lagos' } })
    expect(data.cards).toEqual([expect.objectContaining({ id: u.card!.id, isDefault: true })])
    expect(Math.abs(data.now - Date.now())).toBeLessThan(5_000)
    // The sentences the form shows from the wallet alone come from the loader, not the screen's script.
    expect(data.notice).toBeNull()
    // Manual payouts (the test api's): within the promised hours, whatever the amount.
    const hours = { promiseMs: 24 * 3_600_000, promise: null }
    expect(data.promises).toEqual({ upTo: null, within: hours, above: hours })
  })

  it('“Check” (without JavaScript) reads the amount and moves nothing', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    const res = await submit(withdraw.action, '/wallet/withdraw', { ...form({ intent: 'check', amount: '₦ 3,000.50' }), pin: '' }, jar)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toMatchObject({ checked: 300_050, result: { initialValue: { amount: '₦ 3,000.50' } } })
    const bad = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ intent: 'check', amount: '3.005' }), jar))
    expect(bad.result.error.amount).toEqual(['Enter an amount like 5000 or 5000.50'])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
  })

  it('“Check” says before the PIN what the api would refuse: under the minimum, over today', async () => {
    const u = await walletUser(api, { balance: 60_000_000 })
    await apiWithdraw(api, u, 40_000_000)
    const { jar, form } = await screenOf(u)
    for (const [amount, message] of [
      ['500', 'The smallest withdrawal is ₦1,000.00'],
      ['100,000.01', 'You can withdraw up to ₦100,000.00 more today'],
    ]) {
      const res = await submit(withdraw.action, '/wallet/withdraw', { ...form({ intent: 'check', amount }), pin: '' }, jar)
      expect(res.status).toBe(400) // refused, with the reason beside the amount
      const reply = await jsonOf(res)
      expect(reply.result.error.amount).toEqual([message])
      expect(reply.checked).toBeNull() // no "You receive" for an amount that cannot be sent
    }
  })

  it('a refusal of what was typed stays beside the form; the api away is a toast as well (with or without JavaScript)', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    const refused = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ pin: '999998' }), jar))
    expect(refused.result.error['']).toEqual([expect.stringContaining('Wrong PIN')])
    expect(refused.toast).toBeNull()

    const fresh = await walletUser(api, { balance: 0, pin: null })
    const freshJar = await signedInJar(fresh.token)
    const realApi = process.env.API_BASE_URL
    process.env.API_BASE_URL = await closedPort()
    try {
      const away = await submit(setPin.action, '/set-pin', { pin: '739251', confirmPin: '739251' }, freshJar)
      expect(away.status).toBe(400)
      const reply = await jsonOf(away)
      const message = 'Cannot connect to server. Please check if the backend service is running.'
      expect(reply.result.error['']).toEqual([message])
      expect(reply.toast).toMatchObject({ type: 'error', message })
    } finally {
      process.env.API_BASE_URL = realApi
    }
  })

  it('holds the amount and goes to the success page; the same form posted twice makes one withdrawal', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    const [first, second] = await Promise.all([
      submit(withdraw.action, '/wallet/withdraw', form(), jar),
      submit(withdraw.action, '/wallet/withdraw', form(), jar),
    ])
    expect(first).toHaveRedirect(/^\/wallet\/withdraw-success\?id=[\w-]+$/)
    await expect(first).toSendToast({ type: 'success', message: 'Withdrawal requested' })
    expect(second.headers.get('Location')).toBe(first.headers.get('Location'))
    // And once more, later (a reload of the posted page, a Back and submit again).
    expect((await submit(withdraw.action, '/wallet/withdraw', form(), jar)).headers.get('Location')).toBe(first.headers.get('Location'))
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 700_000, frozen: 300_000 })
    expect((await api.get<{ total: number }>('/v1/withdraw/page', { token: u.token })).body.data.total).toBe(1)
  })

  it('a post without JavaScript (a navigation) goes on to #top, so the refusal fragment of its action does not follow; a post by fetch keeps a clean address', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    const navigate = makeRequest('/wallet/withdraw', { form: form(), jar, headers: { 'Sec-Fetch-Mode': 'navigate' } })
    expect(await call(withdraw.action, navigate, undefined, jar)).toHaveRedirect(/^\/wallet\/withdraw-success\?id=[\w-]+#top$/)
    const fetched = makeRequest('/wallet/withdraw', { form: form(), jar, headers: { 'Sec-Fetch-Mode': 'cors' } })
    expect(await call(withdraw.action, fetched, undefined, jar)).toHaveRedirect(/^\/wallet\/withdraw-success\?id=[\w-]+$/)
  })

  it('the same request id with another amount is refused, and nothing moves', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    await submit(withdraw.action, '/wallet/withdraw', form(), jar)
    const reply = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ amount: '4000' }), jar))
    expect(reply.result.error['']).toEqual(['This request was already made with different details. Start again'])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 700_000, frozen: 300_000 })
  })

  it.each([
    ['too low a balance', { balance: 150_000 }, { amount: '2000' }, 'Your available balance is too low for this withdrawal'],
    ['under the minimum', { balance: 1_000_000 }, { amount: '999.99' }, 'The smallest withdrawal is ₦1,000.00'],
    ['a wrong PIN', { balance: 1_000_000 }, { pin: '999998' }, 'Wrong PIN. 4 tries left before PIN actions are locked for 30 minutes'],
  ])('%s: the message inline, the amount and the account kept, never the PIN; nothing moved', async (_name, setup, patch, message) => {
    const u = await walletUser(api, setup)
    const { jar, form } = await screenOf(u)
    const sent = form(patch)
    const res = await submit(withdraw.action, '/wallet/withdraw', sent, jar)
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error['']).toEqual([message])
    expect(reply.result.initialValue).toMatchObject({ amount: sent.amount, bankCardId: u.card!.id })
    expect(reply.result.initialValue).not.toHaveProperty('pin')
    expect(reply.refused).toEqual(['pin'])
    expect(JSON.stringify(reply)).not.toContain(sent.pin)
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: setup.balance, frozen: 0 })
  })

  it('over what remains today', async () => {
    const u = await walletUser(api, { balance: 60_000_000 })
    await apiWithdraw(api, u, 40_000_000)
    const { jar, form, data } = await screenOf(u)
    expect(data.info.limits.remainingToday).toBe(10_000_000)
    const reply = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ amount: '100,000.01' }), jar))
    expect(reply.result.error['']).toEqual(['You can withdraw up to ₦100,000.00 more today'])
    expect(reply.result.initialValue.amount).toBe('100,000.01')
  })

  it('five wrong PINs lock withdrawals; the screen and the refusal say until when', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    let reply
    for (let i = 0; i < 5; i++) reply = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ pin: '999998' }), jar))
    expect(reply.result.error['']).toEqual([expect.stringMatching(/^Too many wrong PINs\. PIN actions are locked until \d\d:\d\d$/)])
    const locked = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form(), jar))
    expect(locked.result.error['']).toEqual([expect.stringMatching(/locked until \d\d:\d\d$/)])
    const { data } = await screenOf(u)
    expect(data.info.pin.lockedUntil).toBe(api.clock.now() + 30 * 60_000)
    expect(data.notice).toEqual({
      icon: 'lock',
      text: expect.stringMatching(/^Too many wrong PINs\. PIN actions are locked until \d\d:\d\d$/),
    })
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
  })

  it('without JavaScript the action and the page’s loaders share one request: the loaders see the lock the fifth PIN made', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    for (let i = 0; i < 4; i++) await submit(withdraw.action, '/wallet/withdraw', form({ pin: '999998' }), jar)
    // As the web process runs a document POST: one load context for the action, then the loaders.
    const context = loadContextFor(makeRequest('/wallet/withdraw'))
    const before = await jsonOf(await call(withdraw.loader, makeRequest('/wallet/withdraw', { jar }), {}, undefined, context))
    expect(before.info.pin.lockedUntil).toBeFalsy()
    expect(before.notice).toEqual({ icon: 'alert-triangle', text: 'Wrong PIN. 1 try left before PIN actions are locked for 30 minutes' })
    await call(withdraw.action, makeRequest('/wallet/withdraw', { jar, form: form({ pin: '999998' }) }), {}, undefined, context)
    const after = await jsonOf(await call(withdraw.loader, makeRequest('/wallet/withdraw', { jar }), {}, undefined, context))
    expect(after.info.pin.lockedUntil).toBe(api.clock.now() + 30 * 60_000)
  })

  it('a PIN reset less than 24 hours ago: the refusal says until when', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    await api.post('/auth/sendEmailCode', { email: u.email, type: CodeType.RESET_PIN }, { token: u.token })
    await api.post('/v1/user/resetPin', { verifyCode: api.lastCode(u.email, CodeType.RESET_PIN), pin: '739251' }, { token: u.token })
    const { jar, form, data } = await screenOf(u)
    expect(data.info.pin.withdrawBlockedUntil).toBe(api.clock.now() + 24 * 3_600_000)
    expect(data.notice).toEqual({
      icon: 'clock',
      text: expect.stringMatching(/^Your PIN was reset recently\. For your safety, withdrawals open again on .+\d\d:\d\d$/),
    })
    const reply = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form({ pin: '739251' }), jar))
    expect(reply.result.error['']).toEqual([
      expect.stringMatching(/^Your PIN was reset recently\. For your safety, withdrawals open again on .+\d\d:\d\d$/),
    ])
  })

  it.each([
    [{ amount: '' }, 'amount', 'Enter the amount'],
    [{ amount: 'lots' }, 'amount', 'Enter an amount like 5000 or 5000.50'],
    [{ amount: '-5000' }, 'amount', 'Enter an amount like 5000 or 5000.50'],
    [{ amount: '0' }, 'amount', 'Enter an amount like 5000 or 5000.50'],
    [{ amount: '9'.repeat(5000) }, 'amount', 'Enter an amount like 5000 or 5000.50'],
    [{ pin: '12' }, 'pin', 'PIN is 6 digits'],
    [{ requestId: 'x' }, 'requestId', 'requestId must be 8–64 letters, digits, - or _'],
    [{ bankCardId: '' }, 'bankCardId', 'Choose the bank account'],
  ])('bad input %j: a field message, nothing sent to the api', async (patch, field, message) => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const { jar, form } = await screenOf(u)
    const reply = await jsonOf(await submit(withdraw.action, '/wallet/withdraw', form(patch), jar))
    expect(reply.result.error[field]).toEqual([message])
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 1_000_000, frozen: 0 })
  })
})

describe('/wallet/withdraw-success and /wallet/withdraw/{id}', () => {
  it('say what was asked, what arrives, where, and by when', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await apiWithdraw(api, u, 300_000)).body.data
    const jar = await signedInJar(u.token)
    const page = await jsonOf(await load(success.loader, `/wallet/withdraw-success?id=${w.id}`, jar))
    expect(page).toMatchObject({
      timeZone: 'Africa/Lagos',
      withdrawal: { id: w.id, amount: 300_000, fee: 5_000, received: 295_000, expectedBy: w.expectedBy, status: 'pending' },
    })
    expect(page.withdrawal.bankCard).toMatchObject({ bankName: 'Guaranty Trust Bank', maskedNumber: u.card!.maskedNumber })
    const shown = await jsonOf(await load(detail.loader, `/wallet/withdraw/${w.id}`, jar, { id: w.id }))
    expect(shown.withdrawal.events.map((e: { status: string }) => e.status)).toEqual(['pending'])
  })

  it('the detail follows the operator: paid with the reference, or failed with the reason', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const jar = await signedInJar(u.token)
    const paid = (await apiWithdraw(api, u, 300_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-000777' })
    expect((await jsonOf(await load(detail.loader, `/wallet/withdraw/${paid.id}`, jar, { id: paid.id }))).withdrawal).toMatchObject({
      status: 'success',
      reference: 'NIP-000777',
      events: [{ status: 'pending' }, { status: 'processing' }, { status: 'success' }],
    })
    const failed = (await apiWithdraw(api, u, 200_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: failed.id, status: 'failed', reason: 'The bank refused the account name' })
    expect((await jsonOf(await load(detail.loader, `/wallet/withdraw/${failed.id}`, jar, { id: failed.id }))).withdrawal).toMatchObject({
      status: 'failed',
      reason: 'The bank refused the account name',
    })
  })

  it('another person’s withdrawal, an unknown id and a malformed one are all “not found” (404)', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const other = await walletUser(api)
    const w = (await apiWithdraw(api, u, 300_000)).body.data
    const jar = await signedInJar(other.token)
    for (const id of [w.id, '00000000-0000-0000-0000-000000000000', 'x'.repeat(65), '../admin', '']) {
      const res = await load(detail.loader, `/wallet/withdraw/${encodeURIComponent(id)}`, jar, { id })
      expect(res.status, id).toBe(404)
      expect(await jsonOf(res)).toEqual({ message: 'Withdrawal not found' })
      expect((await load(success.loader, `/wallet/withdraw-success?id=${encodeURIComponent(id)}`, jar)).status, id).toBe(404)
    }
    expect((await load(success.loader, '/wallet/withdraw-success', jar)).status).toBe(404)
  })
})

describe('hostile forms never break a wallet action', () => {
  const actions = [
    ['/wallet/withdraw', withdraw.action],
    ['/wallet/add-bank-card', addBankCard.action],
    ['/wallet/bank-cards', bankCards.action],
    ['/set-pin', setPin.action],
    ['/change-pin', changePin.action],
  ] as const
  const names = fc.constantFrom(
    'intent',
    'id',
    'pin',
    'oldPin',
    'confirmPin',
    'amount',
    'bankCardId',
    'requestId',
    'bankCode',
    'accountNumber',
    'accountName',
    'verifyCode',
    'redirectTo',
    'x',
  )
  const values = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.stringMatching(/^\d{0,12}$/),
    fc.constantFrom('withdraw', 'check', 'remove', 'default', 'change', 'send-code', 'reset', '058', '204816', '//evil.example'),
    fc.constant('9'.repeat(5000)),
  )

  for (const [path, action] of actions) {
    it(`${path}: a 400 with messages or a redirect, never a 5xx; no PIN in any answer`, async () => {
      const u = await walletUser(api, { balance: 1_000_000 })
      const jar = await signedInJar(u.token)
      await fc.assert(
        fc.asyncProperty(fc.dictionary(names, values, { maxKeys: 6 }), async (form) => {
          const res = await call(action, makeRequest(path, { form: form as Record<string, string>, jar }))
          expect(res.status).toBeLessThan(500)
          if (res.status === 400 && res.headers.get('content-type')?.includes('json')) {
            // The values a refused form is filled with again never hold a PIN or a code.
            const { result } = await res.json()
            for (const secret of ['pin', 'oldPin', 'confirmPin', 'verifyCode']) expect(result.initialValue ?? {}).not.toHaveProperty(secret)
          }
        }),
        { numRuns: 40 },
      )
      // Whatever was thrown at it, the money is where it was, or held for one real withdrawal.
      const info = await walletInfo(api, u.token)
      expect(info.balance + info.frozen).toBe(1_000_000)
    })
  }
})
