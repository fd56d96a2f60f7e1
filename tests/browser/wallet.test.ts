import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectToast, gotoIn, hydrated, phone, readFirst, signedInPhone, signIn, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { chooseBank, GTBANK } from '../support/bank-picker'
import { admin, adjust, PIN, validNuban, walletUser, withdraw, type WalletUser } from '../support/wallet'

/**
 * The wallet as a person uses it: Debian Chromium, a 390×844 phone, JavaScript on and off, the
 * production build and the real api on a throw-away database; operators move withdrawals through
 * the api's /admin calls, as `npm run ops` does.
 */
const { app, browser } = useBrowserApp()

const formError = (page: Page) => page.locator('form').getByRole('alert')
const lagosClock = (at: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit' }).format(at)

/** A phone signed in as a wallet person made through the api (PIN, card and balance as asked). */
async function walletPhone(js: boolean, options: Parameters<typeof walletUser>[1] = {}, look: Parameters<typeof phone>[2] = {}) {
  const u = await walletUser(app.api, options)
  const { context, page } = await phone(browser, js, look)
  await signIn(context, app.url, u.token)
  return { context, page, u }
}

const goto = gotoIn(() => app.url)

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('set PIN → add a bank account → withdraw → success → detail; the wallet shows the hold', async () => {
      const { context, page, user } = await signedInPhone(browser, app, { js })
      await adjust(app.api, user.id, 1_000_000, 'Card sold elsewhere')
      await goto(page, js, '/')
      // Home: the balance card, the way into the wallet.
      await expect.poll(() => page.getByText('Available balance').isVisible()).toBe(true)
      await page.getByRole('link', { name: 'Open wallet' }).click()
      await page.waitForURL(`${app.url}/wallet`)
      await expect.poll(() => page.getByText('₦10,000.00').first().isVisible()).toBe(true)
      await readFirst(page)
      await page.getByRole('link', { name: 'Withdraw', exact: true }).click()

      // Withdraw without a PIN: set one first, and come back.
      await page.waitForURL(`${app.url}/wallet/withdraw`)
      await readFirst(page)
      await page.getByRole('link', { name: 'Set PIN' }).click()
      await page.waitForURL(/\/set-pin\?redirectTo=%2Fwallet%2Fwithdraw$/)
      await page.getByLabel('New PIN', { exact: true }).fill('123456')
      await page.getByLabel('New PIN again').fill('123456')
      await readFirst(page)
      await page.getByRole('button', { name: 'Set PIN' }).click()
      await expect.poll(() => page.getByText('Choose a PIN that is not a run of digits like 123456').first().isVisible()).toBe(true)
      await page.getByLabel('New PIN', { exact: true }).fill(PIN)
      await page.getByLabel('New PIN again').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Set PIN' }).click()
      // Without JavaScript a form answered on its error fragment lands at "#top" (decision 036).
      await page.waitForURL(/\/wallet\/withdraw(#top)?$/)
      await expectToast(page, 'Withdrawal PIN set')

      // No account yet: add one, and come back.
      await readFirst(page)
      await page.getByRole('link', { name: 'Add bank account' }).click()
      await page.waitForURL(/\/wallet\/add-bank-card\?redirectTo=%2Fwallet%2Fwithdraw$/)
      if (js) await hydrated(page)
      await chooseBank(page, GTBANK)
      const number = validNuban('058', '012345678')
      await page.getByLabel('Account number').fill(number.slice(0, 9) + ((Number(number[9]) + 1) % 10))
      if (js) await expect.poll(() => page.getByText('This account number does not exist at this bank').isVisible()).toBe(true)
      await page.getByLabel('Account number').fill(number)
      if (js) await expect.poll(() => page.getByText('The account number checks out for Guaranty Trust Bank.').isVisible()).toBe(true)
      await page.getByLabel('Account name').fill('Ada Obi')
      await page.getByLabel('Your withdrawal PIN').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Add bank account' }).click()
      await page.waitForURL(/\/wallet\/withdraw(#top)?$/)
      await expectToast(page, 'Bank account added')

      // The summary before the PIN: fee, what arrives, the limits, by when.
      if (js) await hydrated(page)
      expect(await page.getByRole('radio', { name: /Guaranty Trust Bank/ }).isChecked()).toBe(true)
      await readFirst(page)
      await page.getByLabel('Amount (NGN)').fill('3,000')
      if (!js) await page.getByRole('button', { name: 'Check what I receive' }).click()
      const summary = page.getByRole('region', { name: 'Before you confirm' })
      await expect.poll(() => summary.textContent()).toContain('You receive₦2,950.00')
      expect(await summary.textContent()).toMatch(
        /Fee₦50\.00.*Minimum₦1,000\.00.*Daily maximum₦500,000\.00.*Left today₦500,000\.00.*In your bank by/,
      )
      expect(await page.getByLabel('Amount (NGN)').inputValue()).toBe('3,000')
      await page.getByLabel('Your withdrawal PIN').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click()

      // Without JavaScript the address ends in HTML's "#top" (leaveErrorAction).
      await page.waitForURL(/\/wallet\/withdraw-success\?id=[\w-]+(#top)?$/)
      await expectToast(page, 'Withdrawal requested')
      await expect.poll(() => page.getByRole('heading', { name: 'Withdrawal requested' }).isVisible()).toBe(true)
      await expect.poll(() => page.getByText('₦2,950.00').first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText(/In your bank by \d{1,2} \w{3} \d{4}, \d\d:\d\d Lagos time/).isVisible()).toBe(true)
      await readFirst(page)
      await page.getByRole('link', { name: 'Track this withdrawal' }).click()
      await page.waitForURL(/\/wallet\/withdraw\/[\w-]+$/)
      await expect.poll(() => page.getByText('Requested', { exact: true }).first().isVisible()).toBe(true)
      const steps = page.getByRole('list', { name: 'Progress of this withdrawal' }).getByRole('listitem')
      await expect.poll(() => steps.count()).toBe(3)

      await readFirst(page)
      await page.getByRole('link', { name: 'Back' }).click()
      await page.waitForURL(`${app.url}/wallet`)
      await expect.poll(() => page.getByText('On its way to your bank').isVisible()).toBe(true)
      expect(await page.getByRole('link', { name: /^Withdrawal .*-₦3,000\.00/ }).count()).toBe(1)
      expect(await page.locator('.cl-balance').textContent()).toMatch(/₦7,000\.00.*On hold₦3,000\.00/)
      await context.close()
    })

    it('five wrong PINs lock withdrawals, and the screen says until when; the PIN is never sent back', async () => {
      const { context, page, u } = await walletPhone(js, { balance: 1_000_000 })
      await goto(page, js, '/wallet/withdraw')
      let message = ''
      for (let i = 0; i < 5; i++) {
        await page.getByLabel('Amount (NGN)').fill('2000')
        await page.getByLabel('Your withdrawal PIN').fill('999998')
        await readFirst(page)
        await page.getByRole('button', { name: 'Withdraw', exact: true }).click()
        const expected = i < 4 ? `${4 - i} ${4 - i === 1 ? 'try' : 'tries'} left` : 'locked until'
        await expect.poll(() => formError(page).textContent()).toContain(expected)
        message = (await formError(page).textContent()) ?? ''
        expect(await page.content()).not.toContain('999998')
        // The amount and the account stay; the PIN starts empty.
        expect(await page.getByLabel('Amount (NGN)').inputValue()).toBe('2000')
        expect(await page.getByLabel('Your withdrawal PIN').inputValue()).toBe('')
      }
      const info = (await app.api.get<{ pin: { lockedUntil: number } }>('/v1/wallet/info', { token: u.token })).body.data
      expect(message).toContain(`locked until ${lagosClock(info.pin.lockedUntil)}`)
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'PIN actions are locked until' }).textContent())
        .toContain(lagosClock(info.pin.lockedUntil))
      expect(await page.getByRole('button', { name: 'Withdraw', exact: true }).isDisabled()).toBe(true)
      // Change PIN says it too, and offers the e-mail code instead.
      await goto(page, js, '/change-pin')
      await expect.poll(() => page.getByText(`locked until ${lagosClock(info.pin.lockedUntil)}`).isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: 'Change PIN' }).isDisabled()).toBe(true)
      await expect.poll(() => page.getByRole('link', { name: 'Forgot PIN?' }).isVisible()).toBe(true)
      // Its e-mail code steps, which the page loads when they are asked for (decision 066).
      await page.getByRole('link', { name: 'Forgot PIN?' }).click()
      await expect.poll(() => page.getByRole('heading', { name: 'Forgot your PIN?' }).isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Send code' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Set new PIN' }).isVisible()).toBe(true)
      await context.close()
    })

    it('the operator pays: the detail shows it paid, with the reference', async () => {
      const { context, page, u } = await walletPhone(js, { balance: 1_000_000 })
      const w = (await withdraw(app.api, u, 400_000)).body.data
      await admin(app.api).post('/admin/withdraw/update', { id: w.id, status: 'processing' })
      await goto(page, js, `/wallet/withdraw/${w.id}`)
      await expect.poll(() => page.getByText('Processing', { exact: true }).first().isVisible()).toBe(true)
      await admin(app.api).post('/admin/withdraw/update', { id: w.id, status: 'success', reference: 'NIP-20240611-000123' })
      await goto(page, js, `/wallet/withdraw/${w.id}`)
      await expect.poll(() => page.getByText('Paid', { exact: true }).first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText('Paid to Guaranty Trust Bank').isVisible()).toBe(true)
      await expect.poll(() => page.getByText('NIP-20240611-000123').first().isVisible()).toBe(true)
      await goto(page, js, '/wallet')
      await expect.poll(() => page.getByText('Paid to your bank').isVisible()).toBe(true)
      await context.close()
    })

    it('the operator fails one: the reason on the detail, and the refund in the wallet’s log', async () => {
      const { context, page, u } = await walletPhone(js, { balance: 1_000_000 })
      const w = (await withdraw(app.api, u, 300_000)).body.data
      await admin(app.api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'The bank refused the account name' })
      await goto(page, js, '/wallet')
      const refund = page.getByRole('link', { name: /Withdrawal returned/ })
      expect(await refund.textContent()).toMatch(/^Withdrawal returned\+₦3,000\.00The bank refused the account name.*Balance ₦10,000\.00$/)
      expect(await page.locator('.cl-balance').textContent()).toMatch(/₦10,000\.00.*On hold₦0\.00/)
      await refund.click()
      await page.waitForURL(`${app.url}/wallet/withdraw/${w.id}`)
      await expect.poll(() => page.getByRole('heading', { name: 'Withdrawal Detail' }).isVisible()).toBe(true)
      await expect.poll(() => page.getByText('The bank refused the account name').first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText('The full amount is back in your available balance.').first().isVisible()).toBe(true)
      await context.close()
    })

    it('an unknown withdrawal is “Withdrawal not found”, a 404', async () => {
      const { context, page } = await walletPhone(js)
      const res = await page.goto(`${app.url}/wallet/withdraw/00000000-0000-0000-0000-000000000000`)
      expect(res?.status()).toBe(404)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Withdrawal not found')
      await expect.poll(() => page.getByRole('link', { name: 'Back to wallet' }).isVisible()).toBe(true)
      await context.close()
    })
  })
}

describe('bank accounts without JavaScript', () => {
  it('removes one with the PIN in its own small form', async () => {
    const { context, page, u } = await walletPhone(false)
    await goto(page, false, '/wallet/bank-cards')
    await page.getByText(/^Remove\s+Guaranty Trust Bank/).click()
    await page.getByLabel('Your PIN, to remove this account').fill('999998')
    await readFirst(page)
    await page.getByRole('button', { name: 'Remove account' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong PIN. 4 tries left')
    expect(await page.content()).not.toContain('999998')
    await page.getByLabel('Your PIN, to remove this account').fill(PIN)
    await readFirst(page)
    await page.getByRole('button', { name: 'Remove account' }).click()
    await expectToast(page, 'Bank account removed')
    expect(await page.getByText(u.card!.maskedNumber).count()).toBe(0)
    await context.close()
  })
})

/** Every wallet screen a person can reach, with what it needs. */
async function screensOf(u: WalletUser, fresh: WalletUser) {
  const w = (await withdraw(app.api, u, 300_000)).body.data
  return [
    ['home', '/', u],
    ['account', '/account', u],
    ['wallet', '/wallet', u],
    ['wallet-empty', '/wallet', fresh],
    ['bank-cards', '/wallet/bank-cards', u],
    ['bank-cards-no-pin', '/wallet/bank-cards', fresh],
    ['add-bank-card', '/wallet/add-bank-card', u],
    ['withdraw', '/wallet/withdraw', u],
    ['withdraw-no-pin', '/wallet/withdraw', fresh],
    ['withdraw-success', `/wallet/withdraw-success?id=${w.id}`, u],
    ['withdraw-detail', `/wallet/withdraw/${w.id}`, u],
    ['withdraw-not-found', '/wallet/withdraw/nope', u],
    ['set-pin', '/set-pin', fresh],
    ['change-pin', '/change-pin', u],
    ['reset-pin', '/change-pin?mode=reset', u],
  ] as const
}

describe('accessibility (axe-core) and a clean console on every wallet screen, light and dark', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: no violations`, { timeout: 180_000 }, async () => {
      const u = await walletUser(app.api, { balance: 2_500_000 })
      const fresh = await walletUser(app.api, { pin: null })
      await adjust(app.api, u.userId, 150_000, 'Goodwill credit')
      const found: string[] = []
      for (const [name, path, who] of await screensOf(u, fresh)) {
        const { context, page } = await phone(browser, true, { colorScheme })
        // A hydration mismatch (a time or an amount printed differently by server and browser) is an error here.
        page.on('console', (m) => {
          if (m.type() === 'error' && !/status of 404/.test(m.text())) found.push(`${name} console: ${m.text().slice(0, 200)}`)
        })
        await signIn(context, app.url, who.token)
        await goto(page, true, path)
        // Home and Account are shared screens (shell.test.ts audits them whole): here, the wallet's part of them.
        const scope = name === 'home' ? '.cl-balance' : name === 'account' ? '#account-wallet + .cl-card' : 'body'
        const violations = await axeViolations(page, { scope })
        found.push(...violations.map((v) => `${name} ${v}`))
        await context.close()
      }
      expect(found).toEqual([])
    })
  }
})

describe('screenshots (390×844 and 320 wide, light and dark) for a person to look at', () => {
  it('every wallet screen: nothing wider than the phone, every control at least 44 px tall', { timeout: 300_000 }, async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/wallet'
    mkdirSync(dir, { recursive: true })
    const u = await walletUser(app.api, { balance: 2_500_000 })
    const fresh = await walletUser(app.api, { pin: null })
    const paid = (await withdraw(app.api, u, 200_000)).body.data
    await admin(app.api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(app.api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-000123' })
    const failed = (await withdraw(app.api, u, 150_000)).body.data
    await admin(app.api).post('/admin/withdraw/update', { id: failed.id, status: 'failed', reason: 'The bank refused the account name' })
    const screens = [
      ...(await screensOf(u, fresh)),
      ['withdraw-paid', `/wallet/withdraw/${paid.id}`, u],
      ['withdraw-failed', `/wallet/withdraw/${failed.id}`, u],
    ] as const
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 390, height: 844 },
        { width: 320, height: 568 },
      ]) {
        for (const [name, path, who] of screens) {
          const { context, page } = await phone(browser, true, { ...size, colorScheme })
          await signIn(context, app.url, who.token)
          await goto(page, true, path)
          await page.evaluate(() => document.querySelectorAll('.cl-toaster').forEach((t) => t.remove()))
          const wide = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(wide, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
          // Every control a thumb has to hit is at least 44 px tall (radios by their whole row).
          const small = await page.evaluate(() =>
            [
              ...document.querySelectorAll(
                'main a, main button, main summary, main select, main input:not([type=hidden]):not([type=radio])',
              ),
            ]
              .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
              .map(
                (el) =>
                  `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().height)}px`,
              ),
          )
          expect(small, `${name} at ${size.width}`).toEqual([])
          await page.screenshot({ path: `${dir}/${name}-${size.width}-${colorScheme}.png`, fullPage: true })
          await context.close()
        }
      }
    }
  })
})
