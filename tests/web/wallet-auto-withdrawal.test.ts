import { describe, expect, it } from 'vitest'
import * as wallet from '~/routes/wallet._index'
import { useTestApi } from '../support/kit'
import { PIN, walletUser } from '../support/wallet'
import { expectRedirect, flashedToast, jsonOf, load, signedInJar, submit } from '../support/web'

/** The Wallet screen's auto-withdrawal switch, through its loader and action against the real api, as plain form posts. */
const api = useTestApi()

describe('/wallet: automatic withdrawal', () => {
  it('shows where it would go; a wrong PIN is refused beside the field; the right one turns it on; one button turns it off', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const before = await jsonOf(await load(wallet.loader, '/wallet', jar))
    expect(before.autoWithdrawal).toMatchObject({
      enabled: false,
      bankCard: { bankName: 'Guaranty Trust Bank', maskedNumber: u.card!.maskedNumber },
    })

    const wrong = await submit(wallet.action, '/wallet?index', { intent: 'auto-on', pin: '999999' }, jar)
    expect(wrong.status).toBe(400)
    const refused = await jsonOf(wrong)
    expect(JSON.stringify(refused)).not.toContain('999999')
    expect(refused.result.error['']?.[0] ?? '').toMatch(/PIN/)
    expect(refused.refused).toEqual(['pin'])

    const on = await submit(wallet.action, '/wallet?index', { intent: 'auto-on', pin: PIN }, jar)
    expectRedirect(on, '/wallet')
    expect(await flashedToast(on)).toMatchObject({ type: 'success', message: 'Automatic withdrawal is on' })
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(true)

    const off = await submit(wallet.action, '/wallet?index', { intent: 'auto-off' }, jar)
    expectRedirect(off, '/wallet')
    expect(await flashedToast(off)).toMatchObject({ type: 'success', message: 'Automatic withdrawal is off' })
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(false)
  })

  it('without a PIN typed: a field error, nothing switched on', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const res = await submit(wallet.action, '/wallet?index', { intent: 'auto-on' }, jar)
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.pin).toBeDefined()
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(false)
  })
})
