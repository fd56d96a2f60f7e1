import { describe, expect, it } from 'vitest'
import { expectToast, hydrated, phone, signIn, useBrowserApp, readFirst } from '../support/app'
import { axeViolations } from '../support/axe'
import { staffDesktop } from '../support/console-browser'
import { walletUser, withdraw } from '../support/wallet'

/**
 * The payout desk with manual payouts in Chromium at 1280×800, JavaScript on and off: a payouts
 * person marks a withdrawal processing, pays it with the bank's reference, and the seller's
 * receipt (390×844) shows it paid with that reference.
 */
const { app, browser } = useBrowserApp()

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('a payouts person pays a withdrawal on the desk with a reference; the seller’s receipt shows it', async () => {
      const u = await walletUser(app.api, { balance: 1_000_000, userName: 'Adaeze Obi' })
      const w = (await withdraw(app.api, u, 300_000)).body.data
      const { context, page } = await staffDesktop(browser, app, 'payouts', js)
      await page.goto(`${app.url}/ops/payouts`)
      if (js) await hydrated(page)
      const row = page.locator(`#w-${w.id}`)
      await expect.poll(() => row.textContent()).toContain(u.email)
      expect(await row.textContent()).toMatch(/₦3,000\.00.*fee ₦50\.00/)
      await row.getByRole('button', { name: /^Mark processing/ }).click()
      await expectToast(page, 'Marked processing')
      await readFirst(page)
      await page.getByRole('link', { name: /^Processing/ }).click()
      await page.waitForURL(/status=processing/)
      const reference = `NIP-${w.id.slice(0, 8)}`
      await page
        .locator(`#w-${w.id}`)
        .getByLabel(/^Bank reference/)
        .fill(reference)
      await readFirst(page)
      await page.locator(`#w-${w.id}`).getByRole('button', { name: 'Paid' }).click()
      await expectToast(page, 'Marked paid')
      await expect.poll(() => page.locator(`#w-${w.id}`).count()).toBe(0)
      await context.close()

      const seller = await phone(browser, js)
      await signIn(seller.context, app.url, u.token)
      await seller.page.goto(`${app.url}/wallet/withdraw/${w.id}`)
      await expect.poll(() => seller.page.locator('.cl-result').getByText('Paid to').isVisible()).toBe(true)
      expect(await seller.page.getByRole('list', { name: 'Progress of this withdrawal' }).textContent()).toContain(reference)
      await seller.context.close()
    })

    it('a refusal shows beside its row', async () => {
      const u = await walletUser(app.api, { balance: 1_000_000 })
      const w = (await withdraw(app.api, u, 200_000)).body.data
      const { context, page } = await staffDesktop(browser, app, 'payouts', js)
      await page.goto(`${app.url}/ops/payouts`)
      if (js) await hydrated(page)
      // Another operator fails it first; this desk still shows it pending.
      await app.api.db.updateTable('withdrawals').set({ status: 'failed' }).where('id', '=', w.id).execute()
      await page
        .locator(`#w-${w.id}`)
        .getByRole('button', { name: /^Mark processing/ })
        .click()
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'cannot become processing' }).count()).toBeGreaterThan(0)
      await context.close()
    })
  })
}

describe('accessibility (axe-core): the payout desk', () => {
  it('no violations', async () => {
    const u = await walletUser(app.api, { balance: 1_000_000 })
    await withdraw(app.api, u, 200_000)
    const { context, page } = await staffDesktop(browser, app, 'payouts', true)
    await page.goto(`${app.url}/ops/payouts`)
    await hydrated(page)
    expect(await axeViolations(page)).toEqual([])
    await page.goto(`${app.url}/ops/payouts/reconcile?date=2026-01-31`)
    expect(await axeViolations(page)).toEqual([])
    await context.close()
  })
})
