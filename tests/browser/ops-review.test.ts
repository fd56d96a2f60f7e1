import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedUser } from '../support/api'
import { expectToast, readFirst, signIn, TEST_PASSWORD, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { desktop, staffDesktop, staffSignInUi } from '../support/console-browser'
import { newEmail } from '../support/kit'
import { jpeg, photo, sold } from '../support/selling'
import { seedStaff } from '../support/staff'

/**
 * The review desk in Chromium at 1280×800, JavaScript on and off: a reviewer signs in with the
 * authenticator code, claims, zooms a photo, rejects with a proof photo; another completes
 * another order; the seller reads the reason on their order page. axe on the queue and an order.
 */
const { app, browser, uploadDir } = useSellingBrowserApp('review-uploads')

async function physicalOrder() {
  const email = newEmail('seller')
  const { token } = await seedUser(app.api, { email, password: TEST_PASSWORD })
  const order = await sold(app.api, token, {
    brandId: 'steam',
    cardType: 'physical',
    cards: [{ faceValue: 5_000, imageIds: [await photo(app.api, token)] }],
  })
  return { token, order }
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('a reviewer claims, zooms, rejects with a proof; another completes; the seller reads the reason', { timeout: 120_000 }, async () => {
      const first = await physicalOrder()
      const second = await physicalOrder()
      const reviewer = await seedStaff(app.api, { role: 'reviewer' })
      const { context, page } = await desktop(browser, js)
      await staffSignInUi(page, app, reviewer, '/ops/review')
      expect(new URL(page.url()).pathname).toBe('/ops/review')
      await readFirst(page)
      await page.getByRole('link', { name: first.order.orderNo }).click()
      await page.waitForURL(`**/ops/review/${first.order.id}`)
      await readFirst(page)
      await page.getByRole('button', { name: /^Claim/ }).click()
      await expectToast(page, `You hold ${first.order.orderNo}`)
      if (js) {
        await readFirst(page)
        await page.getByRole('button', { name: 'Zoom in Card 1, photo 1' }).click()
        await expect.poll(() => page.locator('.review-photo img').first().getAttribute('style')).toContain('scale(1.5)')
        await readFirst(page)
        await page.getByRole('button', { name: 'Rotate Card 1, photo 1' }).click()
        await expect.poll(() => page.locator('.review-photo img').first().getAttribute('style')).toContain('rotate(90deg)')
      } else {
        expect(await page.getByRole('link', { name: /Card 1, photo 1: open the full photo/ }).getAttribute('target')).toBe('_blank')
      }
      const proof = join(uploadDir, `proof-${js}.jpg`)
      writeFileSync(proof, await jpeg(800, 500))
      await page.getByLabel('Reason', { exact: true }).selectOption('ALREADY_USED')
      await page.getByLabel('Note to the seller', { exact: true }).fill('The balance was zero when we tried it')
      await page.getByLabel('Proof photo (optional)').setInputFiles(proof)
      await readFirst(page)
      await page.getByRole('button', { name: 'Reject' }).click()
      await expectToast(page, `${first.order.orderNo} rejected`)
      await context.close()

      const other = await staffDesktop(browser, app, 'reviewer', js)
      await other.page.goto(`${app.url}/ops/review/${second.order.id}`)
      await other.page.getByRole('button', { name: /^Claim/ }).click()
      await expectToast(other.page, `You hold ${second.order.orderNo}`)
      await readFirst(other.page)
      await other.page.getByRole('button', { name: /^Complete/ }).click()
      await expectToast(other.page, `${second.order.orderNo} completed`)
      await other.context.close()

      const sellerPage = await desktop(browser, js)
      await signIn(sellerPage.context, app.url, first.token)
      await sellerPage.page.goto(`${app.url}/order/${first.order.id}`)
      await expect
        .poll(() => sellerPage.page.getByText('The card had already been used when we tried to redeem it').first().isVisible())
        .toBe(true)
      await sellerPage.context.close()
    })
  })
}

describe('accessibility and screenshots', () => {
  it('axe finds nothing on the queue and an order; screenshots at 1280×800 and 390 wide', { timeout: 120_000 }, async () => {
    const { order } = await physicalOrder()
    await physicalOrder()
    const { context, page } = await staffDesktop(browser, app, 'reviewer', true)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/review'
    mkdirSync(dir, { recursive: true })
    const found: string[] = []
    for (const [name, path] of [
      ['queue', '/ops/review'],
      ['order', `/ops/review/${order.id}`],
    ]) {
      await page.goto(`${app.url}${path}`)
      if (name === 'order') {
        await page.getByRole('button', { name: /^Claim/ }).click()
        await expectToast(page, 'You hold')
      }
      found.push(...(await axeViolations(page)).map((v) => `${path} ${v}`))
      await page.screenshot({ path: join(dir, `${name}-1280.png`), fullPage: true })
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: join(dir, `${name}-390.png`), fullPage: true })
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    expect(found).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
