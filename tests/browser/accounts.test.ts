import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CodeType } from '#contract/accounts'
import { launchChromium, phone, startApp, type RunningApp } from '../support/app'

/**
 * The account flows as a person does them: Debian Chromium, a 390×844 phone, with JavaScript
 * on and off, against the production build and the real api on a throw-away database.
 */
let app: RunningApp
let chrome: Awaited<ReturnType<typeof launchChromium>>
let browser: Browser

beforeAll(async () => {
  app = await startApp()
  chrome = await launchChromium()
  browser = chrome.browser
})
afterAll(async () => {
  await chrome?.close()
  await app?.close()
})

let n = 0
const newEmail = (tag: string) => `${tag}.${++n}.${Date.now()}@example.com`
const PASSWORD = 'violet tangerine harbour'

/** The text of every toast on the screen (the root's flash toast and a form's own). */
async function toastText(page: Page) {
  return (await page.locator('.cl-toast').allTextContents()).map((t) => t.trim()).join(' | ')
}
const expectToast = (page: Page, text: string) => expect.poll(() => toastText(page)).toContain(text)

async function register(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${app.url}/register`)
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect.poll(() => page.getByText(`Enter the 6-digit code we sent to`).isVisible()).toBe(true)
  await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.REGISTER))
  await page.getByLabel('Choose a password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(`${app.url}/`)
}

async function logout(page: Page) {
  await page.goto(`${app.url}/account`)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(`${app.url}/`)
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('register with the e-mailed code, see the greeting; logout; login again', async () => {
      const { context, page } = await phone(browser, js)
      const email = newEmail(js ? 'js' : 'nojs')
      await register(page, email)
      await expect.poll(() => page.title()).toBe('Home - Cardlane')
      await expectToast(page, 'Your account is ready')
      await expect.poll(() => page.getByText(/^Hi, /).isVisible()).toBe(true)

      await logout(page)
      await expectToast(page, 'You are signed out')
      expect(await page.getByRole('link', { name: 'Create a free account' }).isVisible()).toBe(true)

      await page.goto(`${app.url}/login`)
      await expect.poll(() => page.title()).toBe('Login - Cardlane')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill('wrong password here')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => page.locator('#login-password-form-error, .cl-form-error').first().textContent()).toContain('Incorrect e-mail or password')
      // The e-mail stays, the password does not.
      expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email)
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('')

      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      // A person reads the error first; a robot would tap "Sign in" again within the 300 ms
      // double-tap window, which the shell (rightly) swallows.
      await page.waitForTimeout(350)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await expectToast(page, 'Welcome back')
      await context.close()
    })

    it('a visitor opening /account goes to /login and comes back to /account after signing in', async () => {
      const { context, page } = await phone(browser, js)
      const email = newEmail('back')
      await register(page, email)
      await logout(page)
      await page.goto(`${app.url}/account`)
      expect(new URL(page.url()).pathname).toBe('/login')
      expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/account')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/account`)
      await expect.poll(() => page.title()).toBe('Account - Cardlane')
      expect(await page.getByText(email).isVisible()).toBe(true)
      await context.close()
    })

    it('forgot password: code, new password, then sign in with it', async () => {
      const { context, page } = await phone(browser, js)
      const email = newEmail('forgot')
      await register(page, email)
      await logout(page)
      await page.goto(`${app.url}/forgot-password`)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByRole('button', { name: 'Send code' }).click()
      await page.getByLabel('Verification code').waitFor()
      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.RESET_PASSWORD))
      await page.getByLabel('New password', { exact: true }).fill('a completely new passphrase')
      await page.getByRole('button', { name: 'Set new password' }).click()
      await page.waitForURL(`${app.url}/login`)
      await expectToast(page, 'Password changed')
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill('a completely new passphrase')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await context.close()
    })

    it('sign in with an e-mail code', async () => {
      const { context, page } = await phone(browser, js)
      const email = newEmail('code')
      await register(page, email)
      await logout(page)
      await page.goto(`${app.url}/login`)
      await page.getByRole('link', { name: 'E-mail code' }).click()
      await page.waitForURL(/mode=code/)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByRole('button', { name: 'Send code' }).click()
      await page.getByLabel('Verification code').waitFor()
      await page.getByLabel('Verification code').fill(app.api.lastCode(email, CodeType.LOGIN))
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/`)
      await expect.poll(() => page.getByText(/^Hi, /).isVisible()).toBe(true)
      await context.close()
    })

    it('an expired token sends the browser to /login with "Login expired, please login again"', async () => {
      const { context, page } = await phone(browser, js)
      await register(page, newEmail('expired'))
      // Time passes beyond the token's 30-day lifetime (the api's clock is the test's).
      app.api.clock.advance(31 * 24 * 60 * 60 * 1000)
      await page.goto(`${app.url}/account`)
      expect(new URL(page.url()).pathname).toBe('/login')
      await expectToast(page, 'Login expired, please login again')
      await context.close()
    })
  })
}

describe('shell', () => {
  it('toasts close by themselves without JavaScript (CSS), after their duration', async () => {
    const { context, page } = await phone(browser, false)
    await register(page, newEmail('toast'))
    const toast = page.locator('.cl-toast').first()
    expect(await toast.isVisible()).toBe(true)
    // Success toasts last 3000 ms; give a loaded machine slack, but it must go by itself.
    await expect.poll(() => toast.isVisible(), { timeout: 8000, interval: 250 }).toBe(false)
    expect(await toast.count()).toBe(1) // hidden by CSS, not removed: no script ran
    await context.close()
  })

  it('sets --vh, suppresses a second tap within 300 ms, and answers 404 for screens not built yet', async () => {
    const { context, page } = await phone(browser, true)
    await page.goto(`${app.url}/`)
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '')
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--vh'))).toBe(`${844 * 0.01}px`)
    await page.setViewportSize({ width: 390, height: 700 })
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') === '7px')

    const counted = await page.evaluate(async () => {
      const clicks = { a: 0, b: 0 }
      const a = document.createElement('button')
      const b = document.createElement('button')
      a.addEventListener('click', () => clicks.a++)
      b.addEventListener('click', () => clicks.b++)
      document.body.append(a, b)
      a.click()
      a.click() // within 300 ms on the same control: suppressed
      b.click() // another control: goes through
      await new Promise((r) => setTimeout(r, 350))
      b.click() // after 300 ms: goes through
      a.remove()
      b.remove()
      return clicks
    })
    expect(counted).toEqual({ a: 1, b: 2 })

    const res = await page.goto(`${app.url}/wallet`)
    expect(res?.status()).toBe(404)
    expect(await page.title()).toBe('Page not found - Cardlane')
    await context.close()
  })

  it('scrolls to the top on every navigation', async () => {
    const { context, page } = await phone(browser, true)
    await page.goto(`${app.url}/user/privacy`)
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '') // hydrated
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500)
    await page.getByRole('link', { name: 'Back' }).click()
    await page.waitForURL(/\/$/)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    await context.close()
  })

  it('refuses a body larger than a form needs (413), not a 500', async () => {
    const res = await fetch(`${app.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${'a'.repeat(400 * 1024)}`,
      redirect: 'manual',
    })
    expect(res.status).toBe(413)
  })

  it('refuses a form post from another site', async () => {
    const res = await fetch(`${app.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      body: 'intent=password&email=a%40b.co&password=xxxxxxxx',
      redirect: 'manual',
    })
    expect(res.status).toBe(403)
  })
})
