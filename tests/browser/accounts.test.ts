import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import { seedUser } from '../support/api'
import { expectToast, phone, readFirst, signedInPhone, TEST_PASSWORD, toast, useBrowserApp } from '../support/app'
import { newEmail } from '../support/kit'

/**
 * The account flows as a person does them: Debian Chromium, a 390×844 phone, with JavaScript
 * on and off, against the production build and the real api on a throw-away database. One test
 * signs up through the screens; the others start from a person seeded in the database.
 */
const { app, browser } = useBrowserApp()

/** The toast on the screen (role status or alert, in the "Notifications" region), if any. */
/** The refusal beside a form: the one place a form's error is said. */
const formError = (page: Page) => page.locator('form').getByRole('alert')

/** A person seeded in the database, signed out, on /login. */
async function seededOnLogin(js: boolean, path = '/login') {
  const email = newEmail(js ? 'js' : 'nojs')
  await seedUser(app.api, { email, password: TEST_PASSWORD })
  const { context, page } = await phone(browser, js)
  await page.goto(`${app.url}${path}`)
  return { context, page, email }
}

/** A person reads a message before tapping again: past the shell's 300 ms double-tap guard. */

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('signs up through the screens: a wrong code keeps the password (with JS), then the new person is welcomed', async () => {
      const { context, page } = await phone(browser, js)
      const email = newEmail('signup')
      await page.goto(`${app.url}/register`)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByRole('button', { name: 'Send code' }).click()
      await page.getByLabel('Verification code').waitFor()
      await expectToast(page, 'We sent a 6-digit code')

      await page.getByLabel('Verification code').fill('000000')
      await page.getByLabel('Choose a password', { exact: true }).fill(TEST_PASSWORD)
      await readFirst(page)
      await page.getByRole('button', { name: 'Create account' }).click()
      await expect.poll(() => formError(page).textContent()).toContain('The verification code is wrong or has expired')
      // One message in one place: the refusal is not repeated as a toast.
      expect(await toast(page).getByRole('alert').count()).toBe(0)
      // The refused code starts empty; the password the api did not refuse stays (the server never
      // echoes secrets, so without JavaScript both start empty).
      expect(await page.getByLabel('Verification code').inputValue()).toBe('')
      expect(await page.getByLabel('Choose a password', { exact: true }).inputValue()).toBe(js ? TEST_PASSWORD : '')

      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.REGISTER))
      if (!js) await page.getByLabel('Choose a password', { exact: true }).fill(TEST_PASSWORD)
      await readFirst(page)
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(`${app.url}/`)
      await expect.poll(() => page.title()).toBe('Home - Cardlane')
      await expectToast(page, 'Your account is ready')
      // New, so welcomed as new: not "Good to see you again".
      await expect.poll(() => page.getByText('Welcome to Cardlane').isVisible()).toBe(true)
      expect(await page.getByText('Good to see you again').count()).toBe(0)
      await context.close()
    })

    it('password sign-in: a wrong password keeps the e-mail, empties the password; then in, and out again', async () => {
      const { context, page, email } = await seededOnLogin(js)
      await expect.poll(() => page.title()).toBe('Login - Cardlane')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill('wrong password here')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => formError(page).textContent()).toContain('Incorrect e-mail or password')
      expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email)
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('')

      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await expectToast(page, 'Welcome back')
      await expect.poll(() => page.getByText('Good to see you again.').isVisible()).toBe(true)

      await readFirst(page)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click()
      await page.waitForURL(`${app.url}/account`)
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${app.url}/`)
      await expectToast(page, 'You are signed out')
      await expect.poll(() => page.getByRole('link', { name: 'Create a free account' }).isVisible()).toBe(true)
      await context.close()
    })

    it('a visitor opening /account goes to /login and comes back to /account after signing in', async () => {
      const { context, page, email } = await seededOnLogin(js, '/account')
      expect(new URL(page.url()).pathname).toBe('/login')
      expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/account')
      await expectToast(page, 'Please sign in to continue')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/account`)
      await expect.poll(() => page.title()).toBe('Account - Cardlane')
      await expect.poll(() => page.getByText(email).isVisible()).toBe(true)
      await context.close()
    })

    it('forgot password: code, new password, then sign in with it', async () => {
      const { context, page, email } = await seededOnLogin(js, '/forgot-password')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await readFirst(page)
      await page.getByRole('button', { name: 'Send code' }).click()
      await page.getByLabel('Verification code').waitFor()
      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.RESET_PASSWORD))
      await page.getByLabel('New password', { exact: true }).fill('a completely new passphrase')
      await readFirst(page)
      await page.getByRole('button', { name: 'Set new password' }).click()
      await page.waitForURL(`${app.url}/login`)
      await expectToast(page, 'Password changed')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill('a completely new passphrase')
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await context.close()
    })

    it('sign in with an e-mail code', async () => {
      const { context, page, email } = await seededOnLogin(js)
      await readFirst(page)
      await page.getByRole('link', { name: 'E-mail code' }).click()
      await page.waitForURL(/mode=code/)
      await readFirst(page)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByRole('button', { name: 'Send code' }).click()
      await page.getByLabel('Verification code').waitFor()
      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.LOGIN))
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await expect.poll(() => page.getByText(/^Hi, /).isVisible()).toBe(true)
      await context.close()
    })

    it('an expired token sends the browser to /login with "Login expired, please login again"', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await page.goto(`${app.url}/account`)
      await expect.poll(() => page.title()).toBe('Account - Cardlane')
      // Time passes beyond the token's 30-day lifetime (the api's clock is the test's).
      app.api.clock.advance(31 * 24 * 60 * 60 * 1000)
      try {
        await page.goto(`${app.url}/account`)
        expect(new URL(page.url()).pathname).toBe('/login')
        await expectToast(page, 'Login expired, please login again')
      } finally {
        app.api.clock.advance(-31 * 24 * 60 * 60 * 1000)
      }
      await context.close()
    })
  })
}
