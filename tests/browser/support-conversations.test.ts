import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hydrated, readFirst, signedInPhone, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { staffDesktop } from '../support/console-browser'
import { ops, sold } from '../support/selling'

/**
 * Support conversations as a person meets them: Debian Chromium, the production build and the real
 * api. A seller on a 390×844 phone (and 320 wide) writes, is listed, replies; staff at 1280×800
 * answer and close on the Support desk; the seller reads the answer from Notifications; a closed
 * conversation takes no reply. JavaScript on and off, axe on every screen, light and dark.
 */
const { app, browser } = useSellingBrowserApp('support-conversations')
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'finish27-shots')
mkdirSync(SHOTS, { recursive: true })

/** axe 0 on the page (axe runs only where the page runs scripts) and a picture of it. */
async function look(page: Page, shot: string) {
  await page.waitForLoadState('load')
  if (!shot.endsWith('nojs')) expect(await axeViolations(page), shot).toEqual([])
  await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true })
}

/** Nothing wider than the screen (no sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

for (const js of [true, false]) {
  const on = js ? 'js' : 'nojs'
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it(
      'a seller writes about an order, staff answer and close, the seller reads the answer and cannot reply',
      { timeout: 180_000 },
      async () => {
        const seller = await signedInPhone(browser, app, { js })
        const order = await sold(app.api, seller.token)
        await ops(app.api).claim(order.id)
        expect((await ops(app.api).reject(order.id, 'ALREADY_USED', { note: 'Redeemed before.' })).body.code).toBe(200)
        const { page } = seller

        // "Ask about this order" from the order: the subject names it.
        await page.goto(`${app.url}/order/${order.id}`)
        if (js) await hydrated(page)
        await page.getByRole('link', { name: 'Ask about this order' }).click()
        await page.waitForURL((u) => u.pathname === '/support/new')
        expect(await page.getByLabel('Subject').inputValue()).toBe(`Order ${order.orderNo}`)
        await look(page, `seller-new-${on}`)

        // A message of spaces only is refused in words, in the form's box.
        await page.getByLabel('Your message').fill('   ')
        await readFirst(page)
        await page.getByRole('button', { name: 'Send message' }).click()
        await expect.poll(() => page.locator('form [role="alert"]').first().textContent()).toContain('Write your message')
        await look(page, `seller-new-refused-${on}`)

        await page.getByLabel('Your message').fill('My card has not been paid yet. Can you look?')
        await readFirst(page)
        await page.getByRole('button', { name: 'Send message' }).click()
        await page.waitForURL((u) => /^\/support\/[\w-]+$/.test(u.pathname) && u.pathname !== '/support/new')
        const id = new URL(page.url()).pathname.split('/').pop()!
        await expect.poll(() => page.getByRole('list', { name: 'Messages' }).textContent()).toContain('My card has not been paid yet')
        await look(page, `seller-thread-${on}`)

        // Listed on Help & Support.
        await page.goto(`${app.url}/support`)
        if (js) await hydrated(page)
        await expect.poll(() => page.locator(`a[href="/support/${id}"]`).count()).toBe(1)
        await look(page, `seller-support-${on}`)

        // A reply of the seller's own.
        await page.goto(`${app.url}/support/${id}`)
        if (js) await hydrated(page)
        await page.getByLabel('Your reply').fill('The order number is in the subject.')
        await readFirst(page)
        await page.getByRole('button', { name: 'Send reply' }).click()
        await expect.poll(() => page.getByRole('list', { name: 'Messages' }).textContent()).toContain('The order number is in the subject.')
        // The box is empty again: nothing to send twice.
        await expect.poll(() => page.getByLabel('Your reply').inputValue()).toBe('')

        // Staff at 1280×800 see it on the desk, answer, close.
        const desk = await staffDesktop(browser, app, 'payouts', js)
        await desk.page.goto(`${app.url}/ops/support`)
        await expect.poll(() => desk.page.locator(`a[href="/ops/support/${id}"]`).count()).toBe(1)
        await look(desk.page, `desk-list-${on}`)
        await desk.page.locator(`a[href="/ops/support/${id}"]`).click()
        await desk.page.waitForURL((u) => u.pathname === `/ops/support/${id}`)
        await desk.page.getByLabel('Your answer').fill('Paid a minute ago: look at your wallet.')
        await readFirst(desk.page)
        await desk.page.getByRole('button', { name: 'Send reply' }).click()
        await expect.poll(() => desk.page.locator('.cl-thread').textContent()).toContain('Paid a minute ago')
        await expect.poll(() => desk.page.getByLabel('Your answer').inputValue()).toBe('')
        await look(desk.page, `desk-thread-${on}`)
        await desk.page.getByRole('button', { name: 'Close conversation' }).click()
        await desk.page.waitForLoadState('load')
        await desk.page.screenshot({ path: `${SHOTS}/desk-after-close-${on}.png` })
        await expect.poll(() => desk.page.getByText('This conversation is closed.').count()).toBe(1)
        await look(desk.page, `desk-closed-${on}`)
        await desk.context.close()

        // The seller's notification opens the conversation, which shows the answer and takes no reply.
        await page.goto(`${app.url}/notification`)
        if (js) await hydrated(page)
        // Newest first: unread, it is a button that marks it read and opens what it is about.
        const link = page.locator(`a[href="/support/${id}"], .cl-note__form button`).filter({ hasText: 'Support answered' }).first()
        await expect.poll(() => link.count()).toBe(1)
        await look(page, `seller-notifications-${on}`)
        await link.click()
        await page.waitForURL((u) => u.pathname === `/support/${id}`)
        await expect.poll(() => page.getByRole('list', { name: 'Messages' }).textContent()).toContain('Paid a minute ago')
        expect(await page.getByLabel('Your reply').count()).toBe(0)
        expect(await page.getByRole('button', { name: 'Send reply' }).count()).toBe(0)
        await expect.poll(() => page.getByText('This conversation is closed.').count()).toBe(1)
        await look(page, `seller-closed-${on}`)
        await seller.context.close()
      },
    )
  })
}

describe('the seller screens, light and dark, at 320 px', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: no axe violations, nothing wider than the screen`, { timeout: 120_000 }, async () => {
      const seller = await signedInPhone(browser, app, { js: true, width: 320, height: 568, colorScheme })
      const order = await sold(app.api, seller.token)
      const { page } = seller
      await page.goto(`${app.url}/support/new?order=${order.id}`)
      await hydrated(page)
      await page
        .getByLabel('Your message')
        .fill('A long question about my order, to see how a long message wraps on a narrow phone screen.')
      await readFirst(page)
      await page.getByRole('button', { name: 'Send message' }).click()
      await page.waitForURL((u) => /^\/support\/[\w-]+$/.test(u.pathname) && u.pathname !== '/support/new')
      const id = new URL(page.url()).pathname.split('/').pop()!
      for (const path of ['/support', '/support/new', `/support/${id}`]) {
        await page.goto(`${app.url}${path}`)
        await hydrated(page)
        expect(await overflow(page), path).toBeLessThanOrEqual(0)
        await look(page, `seller-320-${colorScheme}-${path.replace(/\W+/g, '-')}`)
      }
      await seller.context.close()
    })
  }
})
