import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as root from '~/root'
import * as notifySettings from '~/routes/account_.notifications'
import * as success from '~/routes/order.submit-success'
import * as plaza from '~/routes/trading-plaza'
import * as addBankCard from '~/routes/wallet.add-bank-card'
import * as bankCards from '~/routes/wallet.bank-cards'
import * as withdraw from '~/routes/wallet.withdraw'
import * as withdrawSuccess from '~/routes/wallet.withdraw-success'
import * as withdrawDetail from '~/routes/wallet.withdraw_.$id'
import { sold, useSellingApi } from '../support/selling'
import { walletUser, withdraw as withdrawMoney, type WalletUser } from '../support/wallet'
import { apiCallsSince, jsonOf, loadDocument, signedInJar } from '../support/web'

/**
 * Every screen makes at most two api calls: the root's /v1/user/index (which the screen's loader
 * shares through the request memo) and at most one call of the screen's own.
 */
const api = useSellingApi({ web: true })

/** A document request (the root's and the screen's loaders, one load context): its data and its api calls. */
async function page(loader: unknown, path: string, u: WalletUser) {
  const before = api.logs.length
  const jar = await signedInJar(u.token, { login_id: u.userId, login_email: u.email })
  const [rootRes, screen] = await loadDocument([root.loader, loader], path, jar)
  expect(rootRes.status, path).toBe(200)
  expect(screen.status, path).toBe(200)
  return { data: await jsonOf(screen), calls: apiCallsSince(api, before) }
}

describe('each screen makes at most 2 api calls', () => {
  it('Order Submitted (a first order, a signed-in person known by id): the user index and the order, no analytics call', async () => {
    const u = await walletUser(api)
    const order = await sold(api, u.token)
    const { data, calls } = await page(success.loader, `/order/submit-success?id=${order.id}`, u)
    expect(data.order.id).toBe(order.id)
    expect(data.timeZone).toBe('Africa/Lagos')
    expect(calls.sort()).toEqual(['/v1/order/detail', '/v1/user/index'])
  })

  it('Bank Cards: the user index (PIN set) and the list', async () => {
    const u = await walletUser(api)
    const { data, calls } = await page(bankCards.loader, '/wallet/bank-cards', u)
    expect(data).toMatchObject({ hasPin: true, cards: [expect.objectContaining({ id: u.card!.id })] })
    expect(calls.sort()).toEqual(['/v1/bankCard/list', '/v1/user/index'])
  })

  it('Add Bank Card: the user index (PIN set, how many accounts, names resolved) and the banks', async () => {
    const u = await walletUser(api, { card: false })
    const { data, calls } = await page(addBankCard.loader, '/wallet/add-bank-card', u)
    expect(data).toMatchObject({ resolvesNames: false, banks: expect.arrayContaining([expect.objectContaining({ code: '058' })]) })
    expect(calls.sort()).toEqual(['/v1/bank/list', '/v1/user/index'])
  })

  it('Withdraw: the user index and the withdraw form (wallet info and bank accounts in one)', async () => {
    const u = await walletUser(api, { balance: 500_000 })
    const { data, calls } = await page(withdraw.loader, '/wallet/withdraw', u)
    expect(data.info).toMatchObject({ balance: 500_000, hasPin: true })
    expect(data.cards).toEqual([expect.objectContaining({ id: u.card!.id })])
    expect(calls.sort()).toEqual(['/v1/user/index', '/v1/wallet/withdrawForm'])
  })

  it('Withdrawal Submitted and a withdrawal: the user index (time zone) and the withdrawal', async () => {
    const u = await walletUser(api, { balance: 500_000 })
    const w = (await withdrawMoney(api, u, 200_000)).body.data
    for (const [loader, path, params] of [
      [withdrawSuccess.loader, `/wallet/withdraw-success?id=${w.id}`, {}],
      [withdrawDetail.loader, `/wallet/withdraw/${w.id}`, { id: w.id }],
    ] as const) {
      const before = api.logs.length
      const [, screen] = await loadDocument([root.loader, loader], path, await signedInJar(u.token), params)
      expect(screen.status, path).toBe(200)
      const data = await jsonOf(screen)
      expect(data).toMatchObject({ withdrawal: { id: w.id }, timeZone: 'Africa/Lagos' })
      expect(apiCallsSince(api, before).sort(), path).toEqual(['/v1/user/index', '/v1/withdraw/detail'])
    }
  })

  it('Trading Plaza: the user index and the catalogue (the list and the board in one)', async () => {
    const u = await walletUser(api)
    const { data, calls } = await page(plaza.loader, '/trading-plaza?country=US', u)
    expect(data.groups.length).toBeGreaterThan(0)
    expect(calls.sort()).toEqual(['/v1/giftcard/catalogue', '/v1/user/index'])
  })

  it('Notification settings: the user index (time zone) and the settings (the switches and the devices in one)', async () => {
    const u = await walletUser(api)
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const subscription = {
      endpoint: `http://127.0.0.1:9/push/${randomBytes(8).toString('hex')}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    }
    expect((await api.post('/v1/user/pushSubscribe', subscription, { token: u.token })).status).toBe(200)
    const { data, calls } = await page(notifySettings.loader, '/account/notifications', u)
    expect(data.kinds.length).toBeGreaterThan(0)
    expect(data.pushAmounts).toBe(false)
    expect(data.devices).toEqual([expect.objectContaining({ name: expect.stringMatching(/^A browser/), lastUsed: 'No push sent yet' })])
    expect(calls.sort()).toEqual(['/v1/user/index', '/v1/user/notifySettings'])
  })
})
