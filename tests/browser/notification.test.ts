import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectToast, gotoIn, hydrated, phone, readFirst, signIn, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { ops, sold } from '../support/selling'
import { adjust, walletUser, withdraw } from '../support/wallet'

/**
 * Notifications as a person uses them: Debian Chromium, a 390×844 phone, JavaScript on and off,
 * the production build and the real api on a throw-away database. The notifications come from the real
 * flows: an operator's credit, a withdrawal, a sold card that an operator claims.
 */
const { app, browser } = useSellingBrowserApp('browser-notification')
const SECOND = 1_000

/** The bell in the top bar, by the name a screen reader reads. */
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /notifications?$/i })
const accountTab = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Account/ })

const goto = gotoIn(() => app.url)

/** A person with four unread notifications: a credit, a withdrawal, an order received and in review. */
async function busyPerson() {
  const u = await walletUser(app.api, { balance: 1_000_000 })
  // Saving the bank account told the person too (a security notification, decision 046); these four are about the flows below.
  const saved = app.api.db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', u.userId)
    .where('title', '=', 'Bank account added')
  await app.api.db.deleteFrom('deliveries').where('notification_id', 'in', saved).execute()
  await app.api.db.deleteFrom('notifications').where('id', 'in', saved).execute()
  app.api.clock.advance(SECOND)
  const w = (await withdraw(app.api, u, 300_000)).body.data
  app.api.clock.advance(SECOND)
  const order = await sold(app.api, u.token)
  app.api.clock.advance(SECOND)
  await ops(app.api).claim(order.id)
  app.api.clock.advance(SECOND)
  return { u, w, order }
}

async function signedIn(js: boolean, token: string, look: Parameters<typeof phone>[2] = {}) {
  const { context, page } = await phone(browser, js, look)
  await signIn(context, app.url, token)
  return { context, page }
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('the badge shows the count; opening a notification lands on its order or withdrawal and the badge counts down; mark all read', async () => {
      const { u, w, order } = await busyPerson()
      const { context, page } = await signedIn(js, u.token)
      await goto(page, js, '/')

      // The bell says it, in words and as a badge; once: the Account tab does not repeat it.
      await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('4 unread notifications')
      expect((await bell(page).textContent())?.trim()).toBe('4')
      expect((await accountTab(page).textContent())?.trim()).toBe('Account')

      await bell(page).click()
      await page.waitForURL(`${app.url}/notification`)
      await readFirst(page)
      if (js) await hydrated(page)
      // A client navigation changes the URL before the new screen is drawn: wait for it.
      await expect.poll(() => page.getByText('4 unread', { exact: true }).isVisible()).toBe(true)
      const rows = page.getByRole('main').getByRole('listitem')
      await expect.poll(() => rows.count()).toBe(4)
      expect(await rows.first().textContent()).toContain('Order in review')

      // Open the newest: it is read on the way to its order.
      await page.getByRole('button', { name: /^Unread: Order in review/ }).click()
      await page.waitForURL(`${app.url}/order/${order.id}`)
      await readFirst(page)
      if (js) await hydrated(page)
      await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('3 unread notifications')

      await bell(page).click()
      await page.waitForURL(`${app.url}/notification`)
      await readFirst(page)
      if (js) await hydrated(page)
      // Read now: a plain link, no longer marked.
      expect(await page.getByRole('link', { name: /^Order in review/ }).getAttribute('href')).toBe(`/order/${order.id}`)
      expect(await page.getByRole('button', { name: /Order in review/ }).count()).toBe(0)
      await page.getByRole('button', { name: /^Unread: Withdrawal requested/ }).click()
      await page.waitForURL(`${app.url}/wallet/withdraw/${w.id}`)
      await readFirst(page)
      if (js) await hydrated(page)
      await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('2 unread notifications')
      expect(await accountTab(page).count()).toBe(0) // a deeper screen: no tab bar

      await bell(page).click()
      await page.waitForURL(`${app.url}/notification`)
      await readFirst(page)
      if (js) await hydrated(page)
      await page.getByRole('button', { name: 'Mark all read' }).click()
      await expectToast(page, 'All notifications marked as read')
      expect(page.url()).toBe(`${app.url}/notification`)
      await expect.poll(() => page.getByText('You are all caught up').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: /^Unread:/ }).count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Mark all read' }).count()).toBe(0)

      // Nothing unread: the bell has no number, the tab says nothing more than its name.
      await goto(page, js, '/')
      expect(await bell(page).getAttribute('aria-label')).toBe('Notifications')
      expect((await bell(page).textContent())?.trim()).toBe('')
      expect((await accountTab(page).textContent())?.trim()).toBe('Account')
      await context.close()
    })

    it('pages with Older and Newer links; more than 99 unread shows 99+', async () => {
      const u = await walletUser(app.api, { pin: null })
      for (let i = 1; i <= 100; i++) {
        app.api.clock.advance(SECOND)
        await adjust(app.api, u.userId, 100, `credit ${i}`)
      }
      const { context, page } = await signedIn(js, u.token)
      await goto(page, js, '/')
      await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('100 unread notifications')
      expect((await bell(page).textContent())?.trim()).toBe('99+')

      await goto(page, js, '/notification')
      await expect.poll(() => page.getByText('credit 100', { exact: false }).first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText('Page 1 of 5').isVisible()).toBe(true)
      await page.getByRole('link', { name: 'Older' }).click()
      await page.waitForURL(`${app.url}/notification?page=2`)
      await expect.poll(() => page.getByText('Page 2 of 5').isVisible()).toBe(true)
      await expect.poll(() => page.getByText(': credit 80', { exact: false }).isVisible()).toBe(true)
      await readFirst(page)
      await page.getByRole('link', { name: 'Newer' }).click()
      await page.waitForURL(`${app.url}/notification`)
      await expect.poll(() => page.getByText('Page 1 of 5').isVisible()).toBe(true)
      await context.close()
    })

    it('a new person: a friendly empty screen, and a bell without a number', async () => {
      const u = await walletUser(app.api, { pin: null })
      const { context, page } = await signedIn(js, u.token)
      await goto(page, js, '/notification')
      await expect.poll(() => page.getByRole('heading', { name: 'No notifications yet' }).isVisible()).toBe(true)
      await expect.poll(() => page.getByRole('link', { name: 'Sell a gift card' }).isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: 'Mark all read' }).count()).toBe(0)
      await goto(page, js, '/account')
      expect(await bell(page).getAttribute('aria-label')).toBe('Notifications')
      await context.close()
    })
  })
}

describe('accessibility and looks', () => {
  it('axe finds nothing on /notification (notifications and empty) and on a page with the badge, light and dark', async () => {
    const { u } = await busyPerson()
    const fresh = await walletUser(app.api, { pin: null })
    const found: string[] = []
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [who, path] of [
        [u, '/notification'],
        [u, '/'],
        [fresh, '/notification'],
      ] as const) {
        const { context, page } = await signedIn(true, who.token, { colorScheme })
        await goto(page, true, path)
        const violations = await axeViolations(page)
        found.push(...violations.map((v) => `${colorScheme} ${path} ${v}`))
        await context.close()
      }
    }
    expect(found).toEqual([])
  })

  it(
    'screenshots at 390×844 and 320 wide, light and dark: nothing wider than the phone, every control 44 px tall',
    { timeout: 300_000 },
    async () => {
      const dir = process.env.SCREENSHOT_DIR ?? 'test-results/notification'
      mkdirSync(dir, { recursive: true })
      const { u, order } = await busyPerson()
      // One read, so both looks are on the screen.
      const { context: c0, page: p0 } = await signedIn(true, u.token)
      await goto(p0, true, '/notification')
      await p0.getByRole('button', { name: /^Unread: Order received/ }).click()
      await p0.waitForURL(`${app.url}/order/${order.id}`)
      await c0.close()
      const fresh = await walletUser(app.api, { pin: null })
      const shots = [
        ['notification', '/notification', u],
        ['notification-empty', '/notification', fresh],
        ['home-badge', '/', u],
      ] as const
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const size of [
          { width: 390, height: 844 },
          { width: 320, height: 568 },
        ]) {
          for (const [name, path, who] of shots) {
            const { context, page } = await signedIn(true, who.token, { ...size, colorScheme })
            await goto(page, true, path)
            await page.evaluate(() => document.querySelectorAll('.cl-toaster').forEach((t) => t.remove()))
            const wide = await page.evaluate(() => document.documentElement.scrollWidth)
            expect(wide, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
            const small = await page.evaluate(() =>
              [...document.querySelectorAll('main a, main button, header a, header button')]
                .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
                .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`),
            )
            expect(small, `${name} at ${size.width}`).toEqual([])
            await page.screenshot({ path: `${dir}/${name}-${size.width}-${colorScheme}.png`, fullPage: true })
            await context.close()
          }
        }
      }
    },
  )
})
