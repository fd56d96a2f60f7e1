import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { unsubscribeToken } from '../../api/services/notify/unsubscribe-token'
import { expectToast, gotoIn, phone, readFirst, signedInPhone, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'

/**
 * Notification settings, the push opt-in and the unsubscribe page as a person uses them: Debian
 * Chromium, a 390×844 phone and a 320 px one, JavaScript on and off, light and dark, the production
 * build and the real api on a throw-away database. Screenshots go to NOTIFY_SHOTS when it is set.
 */
const { app, browser } = useBrowserApp()
const goto = gotoIn(() => app.url)
const SHOTS = process.env.NOTIFY_SHOTS
if (SHOTS) mkdirSync(SHOTS, { recursive: true })

/**
 * A page as it stands, checked by axe. axe runs as a script, so a page without JavaScript is
 * checked as a copy of its document (scripts taken out) at the same address in a page with it.
 */
async function axeOf(
  page: Page,
  js: boolean,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ violations: string[]; scrollWidth: number }> {
  let target = page
  if (!js) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '')
    const viewport = page.viewportSize()!
    target = await page.context().browser()!.newPage({ viewport, colorScheme })
    await target.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html' }))
    await target.goto(page.url())
  }
  const violations = await axeViolations(target)
  const scrollWidth = await target.evaluate(() => document.documentElement.scrollWidth)
  if (!js) await target.close()
  return { violations, scrollWidth }
}

const kind = (page: Page, label: string | RegExp) => page.getByRole('group', { name: label })
const notReachable = 'This browser could not reach its push service'

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('every kind with push and e-mail; security e-mail locked with why; a change is saved and stays', async () => {
      const { page } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/account/notifications')
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Notification Settings')

      const security = kind(page, /^Security/)
      await expect.poll(() => security.getByRole('checkbox', { name: 'E-mail' }).isDisabled()).toBe(true)
      expect(await security.getByRole('checkbox', { name: 'E-mail' }).isChecked()).toBe(true)
      // A checkbox takes no readonly (the Nu Html Checker refuses it): disabled says it.
      expect(await security.getByRole('checkbox', { name: 'E-mail' }).getAttribute('readonly')).toBeNull()
      expect(await security.getByText('Always sent: it keeps your account safe').isVisible()).toBe(true)

      const paidEmail = kind(page, 'Order paid').getByRole('checkbox', { name: 'E-mail' })
      expect(await paidEmail.isChecked()).toBe(true)
      await readFirst(page)
      await paidEmail.click()
      if (js) {
        // Saved by itself: no Save button with JavaScript.
        expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0)
        await expectToast(page, ': off')
      } else {
        await page.getByRole('button', { name: 'Save' }).click()
        await page.waitForURL(/\/account\/notifications/)
        await expectToast(page, 'Notification settings saved')
      }
      await page.reload()
      await expect.poll(() => kind(page, 'Order paid').getByRole('checkbox', { name: 'E-mail' }).isChecked()).toBe(false)
      expect(await page.getByRole('checkbox', { name: 'Show amounts on the lock screen' }).isChecked()).toBe(false)

      // Push: without JavaScript a sentence says how; with it, a button (asking nothing on load).
      const pushSection = page.getByRole('region', { name: 'Devices that get push' })
      // The button comes once the page is hydrated and the browser has said what it can do: waited for.
      if (js) await expect.poll(() => pushSection.getByRole('button', { name: 'Turn on push on this device' }).isVisible()).toBe(true)
      else expect(await pushSection.getByText('Push needs JavaScript').isVisible()).toBe(true)
      await page.context().close()
    })
  })
}

describe('looks', () => {
  for (const js of [true, false])
    for (const width of [390, 320])
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`${width} px, ${colorScheme}, JavaScript ${js ? 'on' : 'off'}: axe finds nothing; nothing wider than the screen`, async () => {
          const { page } = await signedInPhone(browser, app, { js, width, height: width === 320 ? 568 : 844, colorScheme })
          await goto(page, js, '/account/notifications')
          await kind(page, /^Security/).waitFor()
          const { violations, scrollWidth } = await axeOf(page, js, colorScheme)
          expect(violations).toEqual([])
          expect(scrollWidth).toBeLessThanOrEqual(width)
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/settings-${width}-${colorScheme}-${js ? 'js' : 'nojs'}.png`, fullPage: true })
          await page.context().close()
        })
      }
})

describe('turning push on where the browser cannot reach a push service (headless Chromium)', () => {
  it('asks nothing on load; a tap asks for permission and says plainly that push is not on; no uncaught error', async () => {
    const { context, page } = await signedInPhone(browser, app, { js: true })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    let asked = 0
    await context.exposeFunction('permissionAsked', () => asked++)
    await context.addInitScript(() => {
      const ask = Notification.requestPermission.bind(Notification)
      Notification.requestPermission = () => {
        ;(window as unknown as { permissionAsked(): void }).permissionAsked()
        return ask()
      }
    })
    await context.grantPermissions(['notifications'], { origin: app.url })
    await goto(page, true, '/account/notifications')
    const button = page.getByRole('button', { name: 'Turn on push on this device' })
    await button.waitFor()
    expect(asked).toBe(0)
    await readFirst(page)
    await button.click()
    await expect.poll(() => page.getByRole('region', { name: 'Devices that get push' }).textContent()).toContain(notReachable)
    expect(asked).toBe(1)
    expect(await button.isVisible()).toBe(true) // it can be tried again
    expect(
      (await page.evaluate(() => navigator.serviceWorker.getRegistration('/').then((r) => r?.pushManager.getSubscription()))) ?? null,
    ).toBeNull()
    expect(await page.getByRole('region', { name: 'Devices that get push' }).getByRole('listitem').count()).toBe(0)
    expect(errors).toEqual([])
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/settings-push-not-reachable.png`, fullPage: true })
    await context.close()
  })

  it('a blocked permission says where to allow it', async () => {
    const { context, page } = await signedInPhone(browser, app, { js: true })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await context.addInitScript(() => {
      Notification.requestPermission = () => Promise.resolve('denied')
    })
    await goto(page, true, '/account/notifications')
    await readFirst(page)
    await page.getByRole('button', { name: 'Turn on push on this device' }).click()
    await expect
      .poll(() => page.getByRole('region', { name: 'Devices that get push' }).textContent())
      .toContain('Notifications are blocked for this site')
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('unsubscribe link', () => {
  for (const js of [true, false]) {
    it(`JavaScript ${js ? 'on' : 'off'}: says what stops and for whom; one tap; Done with a way to the settings`, async () => {
      const email = `unsub.${js}.${Date.now()}@example.com`
      const { user, context } = await signedInPhone(browser, app, { js, email })
      await context.close()
      const token = unsubscribeToken(app.api.deps.config.selling.codesKey, user.id, 'withdrawal_paid')
      // Opened from a mail app: nobody signed in.
      const { page } = await phone(browser, js)
      await goto(page, js, `/unsubscribe/${token}`)
      const question = page.getByRole('heading', { level: 2 })
      await expect.poll(() => question.textContent()).toMatch(/^Stop e-mails about .+ for u•••@example\.com\?$/)
      expect((await axeOf(page, js)).violations).toEqual([])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/unsubscribe-ask-${js ? 'js' : 'nojs'}.png`, fullPage: true })
      await readFirst(page)
      await page.getByRole('button', { name: 'Stop these e-mails' }).click()
      await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Done')
      expect(await page.getByRole('link', { name: 'Notification settings' }).isVisible()).toBe(true)
      expect((await axeOf(page, js)).violations).toEqual([])
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/unsubscribe-done-${js ? 'js' : 'nojs'}.png`, fullPage: true })
      await page.context().close()
    })
  }

  it('a forged link says so, with a 400, never an error page', async () => {
    const { page } = await phone(browser, false)
    const res = await page.goto(`${app.url}/unsubscribe/bm90LWEtdG9rZW4.AAAAAAAAAAAAAAAAAAAAAAAA`)
    expect(res?.status()).toBe(400)
    expect(await page.getByRole('alert').textContent()).toMatch(/^This unsubscribe link is not valid/)
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/unsubscribe-forged.png`, fullPage: true })
    await page.context().close()
  })
})
