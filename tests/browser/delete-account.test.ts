import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import { seedUser } from '../support/api'
import { expectToast, gotoIn, phone, readFirst, signedInPhone, signIn, TEST_PASSWORD, useBrowserApp } from '../support/app'
import { newEmail } from '../support/kit'
import { adjust } from '../support/wallet'

/**
 * Deleting an account as a person does it: Debian Chromium, a 390×844 phone, JavaScript on and
 * off, the production build and the real api on a throw-away database.
 */
const { app, browser } = useBrowserApp()

const goto = gotoIn(() => app.url)

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('money in the wallet: the reason first, with the amount and the way out; no form to fill', async () => {
      const { context, page, user } = await signedInPhone(browser, app, { js })
      await adjust(app.api, user.id, 1_250_000)
      await goto(page, js, '/delete-account')
      const reason = page.locator('main').getByRole('status')
      await expect.poll(() => reason.textContent()).toContain('Withdraw your ₦12,500.00 balance first, then delete your account')
      expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Delete my account' }).count()).toBe(0)
      await reason.getByRole('link', { name: 'Withdraw' }).click()
      await page.waitForURL(`${app.url}/wallet/withdraw`)
      await context.close()
    })

    it('a wrong password stays on the form emptied; the right one deletes, signs out and says so', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/delete-account')
      await expect.poll(() => page.getByRole('heading', { name: 'What you lose' }).isVisible()).toBe(true)
      await expect.poll(() => page.getByRole('heading', { name: 'What we keep' }).isVisible()).toBe(true)
      await page.getByLabel('Password', { exact: true }).fill('not my password')
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await expect.poll(() => page.getByText('Wrong password. Your account was not deleted').first().isVisible()).toBe(true)
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('')
      expect(await page.content()).not.toContain('not my password')

      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
      await readFirst(page)
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await page.waitForURL(`${app.url}/`)
      await expectToast(page, 'Your account has been deleted')
      // Signed out: the cookie holds no token, so signed-in pages send the person to sign in.
      await goto(page, js, '/account')
      await page.waitForURL(/\/login\?redirectTo=%2Faccount$/)
      await context.close()
    })

    it('an account without a password confirms with an e-mailed code', async () => {
      const email = newEmail('gonly')
      const { token } = await seedUser(app.api, { email, password: null, googleSub: `g-${randomUUID()}` })
      const { context, page } = await phone(browser, js)
      await signIn(context, app.url, token)
      await goto(page, js, '/delete-account')
      expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0)
      await expect.poll(() => page.getByText(email).isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Send code' }).click()
      await expectToast(page, 'We sent a 6-digit code to your e-mail')
      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.DELETE_ACCOUNT))
      await readFirst(page)
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await page.waitForURL(`${app.url}/`)
      await expectToast(page, 'Your account has been deleted')
      expect((await app.api.get('/v1/user/index', { token })).status).toBe(401)
      await context.close()
    })
  })
}

describe('the privacy policy', () => {
  it('says what a deletion erases, what it keeps and for how long, and leads to the screen', async () => {
    const { context, page } = await signedInPhone(browser, app, { js: false })
    await goto(page, false, '/delete-account')
    await page.getByRole('link', { name: 'What is erased and kept, in the privacy policy' }).click()
    await page.waitForURL(`${app.url}/user/privacy#deleting`)
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Deleting your account', exact: true }) })
    const text = await section.textContent()
    expect(text).toContain('Erased at once')
    expect(text).toContain('The account number and holder name of every bank account you saved, and your withdrawal PIN.')
    expect(text).toContain('Kept without your name')
    expect(text).toContain('Retention rule: financial records are kept for 6 years after the transaction, then deleted.')
    expect(text).not.toContain('within 30 days after you delete it')
    await page.screenshot({ path: 'test-results/delete-account/privacy-deleting-390.png' })
    await section.getByRole('link', { name: 'Delete account' }).click()
    await page.waitForURL(`${app.url}/delete-account`)
    await context.close()
  })
})

describe('screenshots (390×844 and 320 wide, light and dark) for a person to look at', () => {
  it('blocked and clear: nothing wider than the phone, every control at least 44 px tall', { timeout: 120_000 }, async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/delete-account'
    mkdirSync(dir, { recursive: true })
    const blocked = await seedUser(app.api, { email: newEmail('blocked'), password: TEST_PASSWORD })
    await adjust(app.api, blocked.user.id, 1_250_000)
    const clear = await seedUser(app.api, { email: newEmail('clear'), password: TEST_PASSWORD })
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 390, height: 844 },
        { width: 320, height: 568 },
      ]) {
        for (const [name, token] of [
          ['blocked', blocked.token],
          ['clear', clear.token],
        ] as const) {
          const { context, page } = await phone(browser, true, { ...size, colorScheme })
          await signIn(context, app.url, token)
          await goto(page, true, '/delete-account')
          const wide = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(wide, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
          const small = await page.evaluate(() =>
            [...document.querySelectorAll('main a, main button, main input:not([type=hidden])')]
              .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
              .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`),
          )
          expect(small, `${name} at ${size.width}`).toEqual([])
          await page.screenshot({ path: `${dir}/${name}-${size.width}-${colorScheme}.png`, fullPage: true })
          await context.close()
        }
      }
    }
  })
})
