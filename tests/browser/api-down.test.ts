import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { transportMessages } from '~/utils/messages'
import { launchChromium, type RunningApp, signedInPhone, startApp, toast } from '../support/app'
import { closedPort } from '../support/fault-upstream'

/**
 * The api stops answering while someone is signed in (the web reads API_BASE_URL on every call,
 * so pointing it at a port nobody listens on is the api going away). The app stays up.
 */
let app: RunningApp
let chrome: Awaited<ReturnType<typeof launchChromium>>
let browser: Browser

beforeAll(async () => {
  app = await startApp()
  chrome = await launchChromium()
  browser = chrome.browser
})
afterEach(() => {
  process.env.API_BASE_URL = app.api.url
})
afterAll(async () => {
  await chrome?.close()
  await app?.close()
})

const apiDown = async () => {
  process.env.API_BASE_URL = await closedPort()
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('pages that do not need the api render, with the catalogue message as a toast; nobody is signed out', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await apiDown()
      for (const [path, heading] of [
        ['/user/privacy', 'How Cardlane handles your data'],
        ['/download', 'Cardlane works in your browser'],
        ['/', 'Why sellers choose Cardlane'],
      ]) {
        const res = await page.goto(`${app.url}${path}`)
        expect(res?.status(), path).toBe(200)
        expect(await page.getByRole('heading', { name: heading }).isVisible(), path).toBe(true)
        expect(await toast(page).getByRole('alert').textContent(), path).toContain(transportMessages.refused)
      }
      // Home says it cannot load the account, and offers no "Sign in" to someone who is signed in.
      expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0)

      process.env.API_BASE_URL = app.api.url
      await page.goto(`${app.url}/`)
      await expect.poll(() => page.getByText(/^Hi, /).isVisible()).toBe(true)
      await context.close()
    })

    it('a page that needs the api shows its error screen with the message and a Retry that works', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await apiDown()
      const res = await page.goto(`${app.url}/account`)
      expect(res?.status()).toBe(503)
      await expect.poll(() => page.title()).toBe('Service unavailable - Cardlane')
      await expect.poll(() => page.getByRole('heading', { name: 'We cannot reach our service right now' }).isVisible()).toBe(true)
      await expect.poll(() => page.getByText(transportMessages.refused).isVisible()).toBe(true)
      // The reference to quote to support is this answer's request id, still there once the page has hydrated.
      const id = (await res?.headerValue('x-request-id')) ?? 'missing'
      if (js) await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '')
      await expect.poll(() => page.getByText(`Reference: ${id}`).isVisible()).toBe(true)

      process.env.API_BASE_URL = app.api.url
      await page.getByRole('link', { name: 'Retry' }).click()
      await page.waitForLoadState()
      await expect.poll(() => page.title()).toBe('Account - Cardlane')
      await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true)
      await context.close()
    })
  })
}

it('a signed-in person moving from a page that rendered to one that needs the api gets the Retry screen (JavaScript on)', async () => {
  const { context, page } = await signedInPhone(browser, app, { js: true })
  await apiDown()
  await page.goto(`${app.url}/`)
  await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click()
  await expect.poll(() => page.getByRole('heading', { name: 'We cannot reach our service right now' }).isVisible()).toBe(true)
  await expect.poll(() => page.getByRole('link', { name: 'Retry' }).isVisible()).toBe(true)
  // The failing request was not the document's: its id is not known here, so none is shown rather than a wrong one.
  expect(await page.getByText('Reference:').count()).toBe(0)
  await context.close()
})
