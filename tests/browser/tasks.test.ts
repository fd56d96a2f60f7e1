import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectToast, gotoIn, hydrated, phone, readFirst, signedInPhone, signIn, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { newCode, ops, sold } from '../support/selling'
import { PIN, walletUser } from '../support/wallet'

/**
 * Task rewards as a person earns them: Debian Chromium, a 390×844 phone, JavaScript on and off,
 * the production build and the real api on a throw-away database.
 */
const { app, browser } = useBrowserApp()

const goto = gotoIn(() => app.url)

const pinTask = (page: Page) => page.getByRole('listitem').filter({ hasText: 'Set your withdrawal PIN' })
const progressOf = (page: Page, title: string) => page.getByRole('progressbar', { name: title }).getAttribute('aria-valuetext')

/** A person with a PIN, the PIN reward claimed, a bank account and one completed order: every state of a task. */
async function midwayUser() {
  const u = await walletUser(app.api)
  await app.api.post('/v1/user/getTaskReward', { taskId: 'set_pin' }, { token: u.token })
  const order = await sold(app.api, u.token, { cards: [{ faceValue: 1_000, cardCodes: [newCode()] }] })
  await ops(app.api).claim(order.id)
  await ops(app.api).complete(order.id)
  return u
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('set a PIN from Rewards → the task is claimable → Claim → the balance goes up and the task says Claimed', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/tasks')
      await expect.poll(() => page.getByRole('heading', { name: 'Rewards', level: 1 }).isVisible()).toBe(true)
      expect(await progressOf(page, 'Set your withdrawal PIN')).toBe('0 of 1')
      expect(await progressOf(page, 'Complete 5 orders')).toBe('0 of 5')
      expect(await page.getByRole('button', { name: /^Claim/ }).count()).toBe(0)

      // The way to do the task, and back.
      await pinTask(page)
        .getByRole('link', { name: /^Set PIN/ })
        .click()
      await page.waitForURL(/\/set-pin\?redirectTo=%2Ftasks$/)
      if (js) await hydrated(page)
      await page.getByLabel('New PIN', { exact: true }).fill(PIN)
      await page.getByLabel('New PIN again').fill(PIN)
      await readFirst(page)
      await page.getByRole('button', { name: 'Set PIN' }).click()
      await page.waitForURL(/\/tasks(#top)?$/)
      await expectToast(page, 'Withdrawal PIN set')
      expect(await progressOf(page, 'Set your withdrawal PIN')).toBe('1 of 1')

      // Claim it.
      if (js) await hydrated(page)
      await readFirst(page)
      await page.getByRole('button', { name: 'Claim reward for Set your withdrawal PIN' }).click()
      await expectToast(page, '₦500.00 added to your wallet')
      await expect.poll(() => pinTask(page).getByText('Claimed').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: 'Claim reward for Set your withdrawal PIN' }).count()).toBe(0)
      expect(page.url()).toBe(`${app.url}/tasks`)

      // The money is in the wallet.
      await goto(page, js, '/wallet')
      await expect.poll(() => page.getByText('₦500.00').first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText('Task reward').first().isVisible()).toBe(true)
      await context.close()
    })
  })
}

describe('a refusal reads as a toast, and the page stays usable', () => {
  it('a claim of a task claimed meanwhile (another tab) says so', async () => {
    const u = await walletUser(app.api, { card: false })
    const { context, page } = await phone(browser, false)
    await signIn(context, app.url, u.token)
    await goto(page, false, '/tasks')
    // The other tab claims first.
    expect((await app.api.post('/v1/user/getTaskReward', { taskId: 'set_pin' }, { token: u.token })).body.code).toBe(200)
    await page.getByRole('button', { name: 'Claim reward for Set your withdrawal PIN' }).click()
    await page.waitForURL(/\/tasks(#top)?$/)
    await expectToast(page, 'You already claimed this reward')
    await expect.poll(() => pinTask(page).getByText('Claimed').isVisible()).toBe(true)
    await context.close()
  })
})

describe('accessibility (axe-core), a clean console, and screenshots of /tasks', () => {
  it('light and dark: no violations, no console errors', async () => {
    const u = await midwayUser()
    const found: string[] = []
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await phone(browser, true, { colorScheme })
      page.on('console', (m) => {
        if (m.type() === 'error') found.push(`${colorScheme} console: ${m.text().slice(0, 200)}`)
      })
      await signIn(context, app.url, u.token)
      await goto(page, true, '/tasks')
      const violations = await axeViolations(page, { keepToasts: true })
      found.push(...violations.map((v) => `${colorScheme} ${v}`))
      await context.close()
    }
    expect(found).toEqual([])
  })

  it('390×844 and 320 wide, light and dark: nothing wider than the phone, every control at least 44 px tall', async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/tasks'
    mkdirSync(dir, { recursive: true })
    const u = await midwayUser()
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 390, height: 844 },
        { width: 320, height: 568 },
      ]) {
        const { context, page } = await phone(browser, true, { ...size, colorScheme })
        await signIn(context, app.url, u.token)
        await goto(page, true, '/tasks')
        expect(await progressOf(page, 'Complete 5 orders')).toBe('1 of 5')
        const wide = await page.evaluate(() => document.documentElement.scrollWidth)
        expect(wide, `at ${size.width}`).toBeLessThanOrEqual(size.width)
        const small = await page.evaluate(() =>
          [...document.querySelectorAll('main a, main button')]
            .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
            .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`),
        )
        expect(small, `at ${size.width}`).toEqual([])
        await page.screenshot({ path: `${dir}/tasks-${size.width}-${colorScheme}.png`, fullPage: true })
        // What the phone shows first, fixed bars included.
        await page.screenshot({ path: `${dir}/tasks-${size.width}x${size.height}-${colorScheme}-screen.png` })
        await context.close()
      }
    }
  })
})
