import { afterAll, describe, expect, it } from 'vitest'
import { runPayoutsOnce } from '../../api/services/payouts'
import { expectToast, gotoIn, phone, readFirst, signIn, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { chooseBank, GTBANK } from '../support/bank-picker'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { PIN, validNuban, walletUser } from '../support/wallet'

/**
 * Payouts through a provider (the fake Paystack) in Chromium on a 390×844 phone, JavaScript on
 * and off: Add Bank Card names the account through the bank, the person confirms, withdraws, and
 * the receipt turns paid when the provider's webhook reaches the web's /webhooks/paystack.
 */
const fake = await startFakePaystack()
const { app, browser } = useBrowserApp({
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: 10_000_000,
      pollSeconds: 60,
      requestTimeoutMs: 1_500,
      leaseMs: 10_000,
    },
  },
})
afterAll(() => fake.close())
const goto = gotoIn(() => app.url)

async function sellerPhone(js: boolean, colorScheme: 'light' | 'dark' = 'light') {
  const u = await walletUser(app.api, { balance: 1_000_000, card: false, userName: 'Adaeze Obi' })
  const { context, page } = await phone(browser, js, { colorScheme })
  await signIn(context, app.url, u.token)
  return { context, page, u }
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('add a bank account with the bank’s name, withdraw (minutes promised), the receipt turns paid on the webhook', async () => {
      fake.webhookUrl = `${app.url}/webhooks/paystack`
      const { context, page } = await sellerPhone(js)
      await goto(page, js, '/wallet/add-bank-card')
      expect(await page.getByLabel('Account name').count()).toBe(0)
      await chooseBank(page, GTBANK)
      await page.getByLabel('Account number').fill(validNuban('058'))
      // With JavaScript the tenth digit asks the bank; without, the first submit does.
      if (!js) await page.getByRole('button', { name: 'Check the account' }).click()
      await expect.poll(() => page.getByText('ADAEZE OBI — is this your account?').isVisible()).toBe(true)
      await page.getByLabel('Your withdrawal PIN, to save it').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Yes, save this account' }).click()
      // Without JavaScript the address ends in HTML's "#top" (leaveErrorAction).
      await page.waitForURL(/\/wallet\/bank-cards(#top)?$/)
      await expectToast(page, 'Bank account added')
      await expect.poll(() => page.getByText('ADAEZE OBI').first().isVisible()).toBe(true)

      await goto(page, js, '/wallet/withdraw')
      await page.getByLabel('Amount (NGN)').fill('3,000')
      if (!js) await page.getByRole('button', { name: 'Check what I receive' }).click()
      const summary = page.getByRole('region', { name: 'Before you confirm' })
      await expect.poll(() => summary.textContent()).toContain('usually in your bank within 15 minutes')
      await page.getByLabel('Your withdrawal PIN').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click()
      // Without JavaScript the address ends in HTML's "#top" (leaveErrorAction).
      await page.waitForURL(/\/wallet\/withdraw-success\?id=[\w-]+(#top)?$/)
      const id = new URL(page.url()).searchParams.get('id')!

      await runPayoutsOnce(app.api.deps)
      await goto(page, js, `/wallet/withdraw/${id}`)
      const steps = page.getByRole('list', { name: 'Progress of this withdrawal' })
      await expect.poll(() => steps.textContent()).toMatch(/Transfer code: TRF_/)
      expect(await page.locator('.cl-result').getByText('On its way to').isVisible()).toBe(true)

      fake.transfers.get(id)!.session = { provider: 'nip', id: '7'.repeat(30) }
      expect(await fake.settle(id, 'success')).toEqual([200])
      // With JavaScript the open receipt asks again by itself (no reload); without, the person reloads.
      if (!js) await page.reload()
      const paid = page.locator('.cl-result').getByText('Paid to')
      if (js) await paid.waitFor({ timeout: 20_000 })
      await expect.poll(() => paid.isVisible()).toBe(true)
      expect(await steps.textContent()).toContain('7'.repeat(30))
      await context.close()
    })
  })
}

describe('accessibility (axe-core): Add Bank Card with the bank’s name shown, light and dark', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: no violations`, async () => {
      const { context, page } = await sellerPhone(true, colorScheme)
      await goto(page, true, '/wallet/add-bank-card')
      await chooseBank(page, GTBANK)
      await page.getByLabel('Account number').fill(validNuban('058'))
      await expect.poll(() => page.getByText('is this your account?').isVisible()).toBe(true)
      expect(await axeViolations(page)).toEqual([])
      await context.close()
    })
  }
})
