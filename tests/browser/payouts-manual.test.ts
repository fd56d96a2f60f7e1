import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hydrated, phone, signIn, useBrowserApp } from '../support/app'
import { staffDesktop } from '../support/console-browser'
import { admin, walletUser, withdraw } from '../support/wallet'

/**
 * Paying by hand on the payout desk (1280×800) with JavaScript off and on, and the seller's side
 * (390×844, JavaScript off): Withdraw's payout speed, the auto-withdrawal switch, and a failed
 * payout's receipt leading back to Withdraw. SHOTS_DIR set: each screen is also saved there.
 */
const { app, browser } = useBrowserApp()

async function shot(page: Page, name: string, fullPage = true) {
  const dir = process.env.SHOTS_DIR
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage })
}

const pay = async (id: string) => {
  await admin(app.api).post('/admin/withdraw/update', { id, status: 'processing' })
  await admin(app.api).post('/admin/withdraw/update', { id, status: 'success', reference: `NIP-${id.slice(0, 8)}` })
}

for (const js of [false, true]) {
  it(`the desk shows the amount to send and reveals the account on request (JavaScript ${js ? 'on' : 'off'})`, async () => {
    const u = await walletUser(app.api, { balance: 1_000_000, userName: 'Ada Obi' })
    const w = (await withdraw(app.api, u, 300_000)).body.data
    const number = (
      await app.api.db.selectFrom('bank_cards').select('account_number').where('id', '=', u.card!.id).executeTakeFirstOrThrow()
    ).account_number
    const { context, page } = await staffDesktop(browser, app, 'payouts', js)
    try {
      await page.goto(`${app.url}/ops/payouts`)
      if (js) await hydrated(page)
      const row = page.locator(`#w-${w.id}`)
      expect(await row.textContent()).toMatch(/₦2,950\.00.*₦3,000\.00 less fee ₦50\.00/)
      expect(await page.content()).not.toContain(number)
      await row.getByRole('button', { name: `Show account number for ${u.email}` }).click()
      const account = page.getByLabel(`Account to pay for withdrawal ${w.id}`)
      await account.waitFor()
      expect(await account.textContent()).toContain(number)
      expect(await account.textContent()).toContain('2950.00')
      expect(await account.getByRole('button', { name: 'Copy account number' }).count()).toBe(js ? 1 : 0)
      await shot(page, `desk-reveal-${js ? 'js' : 'nojs'}`)
    } finally {
      await context.close()
    }
  })
}

describe('the seller, JavaScript off', () => {
  it('Withdraw says how fast payouts were; the wallet offers auto-withdrawal; a failed receipt leads to Withdraw with its amount', async () => {
    const u = await walletUser(app.api, { balance: 20_000_000, userName: 'Ada Obi' })
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await withdraw(app.api, u, 100_000)).body.data.id)
    for (const id of ids) {
      app.api.clock.advance(60_000)
      await pay(id)
    }
    app.api.clock.advance(60_000)
    const failed = (await withdraw(app.api, u, 400_000)).body.data
    await admin(app.api).post('/admin/withdraw/update', { id: failed.id, status: 'failed', reason: 'The bank closed this account' })

    const { context, page } = await phone(browser, false)
    try {
      await signIn(context, app.url, u.token)
      await page.goto(`${app.url}/wallet/withdraw`)
      const speed = page.getByText('Most payouts last week reached the bank in 10 minutes; 9 in 10 within 18 minutes.')
      await speed.scrollIntoViewIfNeeded()
      await shot(page, 'withdraw-speed', false)

      await page.goto(`${app.url}/wallet`)
      const panel = page.getByRole('region', { name: /Automatic withdrawal/ })
      expect(await panel.textContent()).toContain('Guaranty Trust Bank')
      await shot(page, 'wallet-auto-off')
      await panel.getByLabel('Your withdrawal PIN').fill('204816')
      await panel.getByRole('button', { name: 'Turn on' }).click()
      await page.waitForURL(`${app.url}/wallet`)
      expect(await page.getByRole('region', { name: /Automatic withdrawal/ }).textContent()).toContain('Turn off')
      await shot(page, 'wallet-auto-on')

      await page.goto(`${app.url}/wallet/withdraw/${failed.id}`)
      await shot(page, 'receipt-failed')
      await page.getByRole('link', { name: 'Send it to another account' }).click()
      await page.waitForURL(/\/wallet\/withdraw\?amount=4000\.00/)
      expect(await page.getByLabel(/^Amount/).inputValue()).toBe('4000.00')
      await shot(page, 'withdraw-preset')
    } finally {
      await context.close()
    }
  })
})
