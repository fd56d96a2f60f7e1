import { describe, expect, it } from 'vitest'
import * as wallet from '~/routes/wallet._index'
import * as autoSwitch from '~/routes/wallet.auto-withdrawal'
import { useTestApi } from '../support/kit'
import { PIN, walletUser } from '../support/wallet'
import { expectRedirect, flashedToast, jsonOf, load, signedInJar, submit } from '../support/web'

/** The Wallet screen's auto-withdrawal switch (posted to /wallet/auto-withdrawal), through the loader and action against the real api, as plain form posts. */
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

    const wrong = await submit(autoSwitch.action, '/wallet/auto-withdrawal', { intent: 'auto-on', pin: '999999' }, jar)
    expectRedirect(wrong, '/wallet')
    expect(wrong.headers.get('location')).not.toContain('999999')
    const refused = await flashedToast(wrong)
    expect(refused).toMatchObject({ type: 'error' })
    expect(refused?.message).toMatch(/PIN/)
    expect(JSON.stringify(refused)).not.toContain('999999')
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(false)

    const on = await submit(autoSwitch.action, '/wallet/auto-withdrawal', { intent: 'auto-on', pin: PIN }, jar)
    expectRedirect(on, '/wallet')
    expect(await flashedToast(on)).toMatchObject({ type: 'success', message: 'Automatic withdrawal is on' })
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(true)

    const off = await submit(autoSwitch.action, '/wallet/auto-withdrawal', { intent: 'auto-off' }, jar)
    expectRedirect(off, '/wallet')
    expect(await flashedToast(off)).toMatchObject({ type: 'success', message: 'Automatic withdrawal is off' })
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(false)
  })

  it('without a PIN typed: a toast that asks for it, nothing switched on', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const res = await submit(autoSwitch.action, '/wallet/auto-withdrawal', { intent: 'auto-on' }, jar)
    expectRedirect(res, '/wallet')
    expect(await flashedToast(res)).toMatchObject({ type: 'error' })
    expect((await jsonOf(await load(wallet.loader, '/wallet', jar))).autoWithdrawal.enabled).toBe(false)
  })
})
