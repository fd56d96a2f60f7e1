import { mkdirSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { formatMoney } from '#contract/money'
import { seedUser } from '../support/api'
import { expectToast, phone, readFirst, TEST_PASSWORD, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { staffDesktop } from '../support/console-browser'
import { newEmail } from '../support/kit'
import { ops, sold, upload } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/**
 * The console read at a glance, in Chromium at 1280×800 and 390×844, JavaScript on and off: the
 * claim toast beside the order's heading, not over it; matching photos as one line; the audit log
 * in words and scrollable by keyboard; people found by part of what staff know; the dashboard's
 * paid out and today's reviews; a phone that starts with the page.
 */
const { app, browser } = useSellingBrowserApp('glance-uploads')
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/ops-glance'
mkdirSync(SHOTS, { recursive: true })

/** A photo of its own: 8×8 blocks from `seed`, so only the same seed looks alike to the perceptual hash. */
async function patterned(seed: number): Promise<Buffer> {
  let x = seed * 2_654_435_761 + 12_345
  const next = () => ((x = (x * 1_103_515_245 + 12_345) >>> 0), x >>> 24)
  const blocks = Array.from({ length: 64 }, () => next())
  const px = Buffer.alloc(256 * 256 * 3)
  for (let y = 0; y < 256; y++)
    for (let xx = 0; xx < 256; xx++)
      px.fill(blocks[Math.floor(y / 32) * 8 + Math.floor(xx / 32)]!, (y * 256 + xx) * 3, (y * 256 + xx) * 3 + 3)
  return sharp(px, { raw: { width: 256, height: 256, channels: 3 } })
    .jpeg()
    .toBuffer()
}

/** An order of one physical card with these photos, by a new seller. */
async function orderWithPhotos(seeds: number[]) {
  const { token } = await seedUser(app.api, { email: newEmail('seller'), password: TEST_PASSWORD })
  const imageIds: string[] = []
  for (const s of seeds) {
    const res = await upload(app.api, { token }, await patterned(s))
    expect(res.body.code, res.text).toBe(200)
    imageIds.push(res.body.data.fileId)
  }
  return sold(app.api, token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds }] })
}

const overlap = async (a: Locator, b: Locator) => {
  const [p, q] = [await a.boundingBox(), await b.boundingBox()]
  if (!p || !q) throw new Error('not on the page')
  return p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height
}

async function paidWithdrawal() {
  const payer = await walletUser(app.api, { balance: 5_000_000 })
  const w = (await withdraw(app.api, payer, 1_000_000)).body.data
  const payouts = await seedStaff(app.api, { role: 'payouts' })
  for (const body of [
    { id: w.id, status: 'processing' },
    { id: w.id, status: 'success', reference: `NIP-${w.id.slice(0, 6)}` },
  ])
    expect((await app.api.post('/admin/withdraw/update', body, { headers: bearer(payouts.token) })).body.code).toBe(200)
  return { payer, w }
}

/**
 * axe finds nothing on the page as it is. Without JavaScript the page cannot run axe itself: the
 * same address opens in a context whose scripts of ours are refused, so axe sees the server's HTML.
 */
async function noAxe(page: Page, name: string, js: boolean) {
  if (js) return expect((await axeViolations(page, { scope: 'body' })).map((v) => `${name} ${v}`)).toEqual([])
  const context = await browser.newContext({ viewport: page.viewportSize() })
  await context.addCookies(await page.context().cookies())
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort())
  const asServed = await context.newPage()
  await asServed.goto(page.url())
  expect(await asServed.evaluate(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))).toBe(false)
  expect((await axeViolations(asServed, { scope: 'body' })).map((v) => `${name} (no JavaScript) ${v}`)).toEqual([])
  await context.close()
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('the claim toast is not over the order’s heading; eight matching photos are one line that opens', { timeout: 90_000 }, async () => {
      const base = js ? 100 : 200
      const seeds = Array.from({ length: 8 }, (_, i) => base + i)
      const earlier = await orderWithPhotos(seeds)
      const order = await orderWithPhotos(seeds)
      const { context, page } = await staffDesktop(browser, app, 'reviewer', js)
      await page.goto(`${app.url}/ops/review/${order.id}`)
      await readFirst(page)
      await page.getByRole('button', { name: /^Claim/ }).click()
      await expectToast(page, `You hold ${order.orderNo}`)
      const toast = page.locator('.cl-toast')
      await expect.poll(() => toast.isVisible()).toBe(true)
      const heading = page.getByRole('heading', { level: 1, name: `Order ${order.orderNo}` })
      expect(await overlap(toast, heading)).toBe(false)
      expect(await overlap(toast, page.getByRole('link', { name: 'Back to the queue' }))).toBe(false)
      expect(await overlap(toast, page.getByRole('button', { name: /Renew claim/ }))).toBe(false)
      await page.screenshot({ path: `${SHOTS}/review-claimed-${js ? 'js' : 'nojs'}-1280.png` })

      const signals = page.getByRole('list', { name: 'Signals' })
      const lines = signals.locator(':scope > li')
      expect(await lines.count()).toBe(1)
      const summary = `8 photos match another account’s order ${earlier.orderNo}`
      expect(await lines.first().textContent()).toContain(summary)
      const detail = signals.getByText('Card 1, photo 8: the same picture')
      expect(await detail.isVisible()).toBe(false)
      await page.getByText(summary).click()
      await expect.poll(() => detail.isVisible()).toBe(true)
      await page.screenshot({ path: `${SHOTS}/review-signals-open-${js ? 'js' : 'nojs'}-1280.png` })
      expect(await signals.getByRole('link', { name: 'Open that order' }).getAttribute('href')).toBe(`/ops/review/${earlier.id}`)
      await noAxe(page, 'review', js)
      await context.close()
    })

    it('the audit log says what changed in words, and its table scrolls by keyboard', { timeout: 60_000 }, async () => {
      await paidWithdrawal()
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/audit?action=withdrawal.processing`)
      const region = page.getByRole('region', { name: 'Audit log entries' })
      const row = region.getByRole('row').nth(1)
      expect(await row.textContent()).toContain('Status')
      expect(await row.textContent()).toContain('pending → processing')
      expect(await region.textContent()).not.toMatch(/[{}"]/)
      await noAxe(page, 'audit-1280', js)
      await page.screenshot({ path: `${SHOTS}/audit-${js ? 'js' : 'nojs'}-1280.png`, fullPage: true })
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto(`${app.url}/ops/audit`)
      await noAxe(page, 'audit-390', js)
      // Wider than a phone: Tab reaches the table, the arrow key scrolls it.
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
      await region.focus()
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
      await context.close()
    })

    it(
      'people are found by part of an e-mail and by an order’s number; a person’s orders and withdrawals open their desks',
      { timeout: 60_000 },
      async () => {
        const tag = `g${js ? 1 : 0}${Date.now().toString(36)}`
        const one = await walletUser(app.api, { balance: 5_000_000, userName: `Chidi ${tag}` })
        await seedUser(app.api, { email: `other.${tag}@example.com`, userName: `Chidi ${tag}` })
        const order = await sold(app.api, one.token)
        const w = (await withdraw(app.api, one, 1_000_000)).body.data
        const { context, page } = await staffDesktop(browser, app, 'admin', js)
        await page.goto(`${app.url}/ops/people`)
        const search = page.getByRole('searchbox', { name: 'E-mail, name, order or withdrawal number' })
        await search.fill(`chidi ${tag}`.toUpperCase())
        await search.press('Enter')
        await expect.poll(() => page.getByRole('heading', { name: `2 people match “CHIDI ${tag.toUpperCase()}”` }).isVisible()).toBe(true)
        await noAxe(page, 'people', js)
        await page.screenshot({ path: `${SHOTS}/people-search-${js ? 'js' : 'nojs'}-1280.png`, fullPage: true })
        await page.getByRole('searchbox', { name: 'E-mail, name, order or withdrawal number' }).fill(order.orderNo.slice(-5))
        await page.getByRole('button', { name: 'Find' }).click()
        await page.waitForURL(`**/ops/people/${one.userId}`)
        const orderLink = page.getByRole('link', { name: order.orderNo })
        await expect.poll(() => orderLink.getAttribute('href')).toBe(`/ops/review/${order.id}`)
        const wLink = page.getByRole('link', { name: `Withdrawal ${w.id.slice(0, 8)} on the payout desk` })
        expect(await wLink.getAttribute('href')).toBe(`/ops/payouts?status=pending#w-${w.id}`)
        await page.screenshot({ path: `${SHOTS}/person-${js ? 'js' : 'nojs'}-1280.png`, fullPage: true })
        await readFirst(page)
        await orderLink.click()
        await page.waitForURL(`**/ops/review/${order.id}`)
        await expect.poll(() => page.getByRole('heading', { level: 1, name: `Order ${order.orderNo}` }).isVisible()).toBe(true)
        await page.goBack()
        await readFirst(page)
        await page.getByRole('link', { name: `Withdrawal ${w.id.slice(0, 8)} on the payout desk` }).click()
        await page.waitForURL((url) => url.pathname === '/ops/payouts')
        await expect.poll(() => page.locator(`[id="w-${w.id}"]`).isVisible()).toBe(true)
        await context.close()
      },
    )

    it('the dashboard: paid out is what the banks received; the review-time chart shows today', { timeout: 60_000 }, async () => {
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops`)
      const before = await page.getByRole('region', { name: 'Today' }).textContent()
      const paid = Number(/(\d+) withdrawals paid/.exec(before ?? '')?.[1] ?? 0)
      const { w } = await paidWithdrawal()
      const { token } = await seedUser(app.api, { email: newEmail('quick') })
      const quick = await sold(app.api, token)
      expect((await ops(app.api).claim(quick.id)).body.code).toBe(200)
      expect((await ops(app.api).complete(quick.id)).body.code).toBe(200)
      await page.goto(`${app.url}/ops`)
      const today = await page.getByRole('region', { name: 'Today' }).textContent()
      expect(today).toContain(`${paid + 1} withdrawals paid`)
      expect(w.amount - w.fee).toBe(w.received)
      // This file's only paid withdrawals are the ones it paid: each 1,000,000 less its fee.
      expect(today).toContain(`${formatMoney((paid + 1) * w.received, w.currency)} paid out`)
      const chart = page.getByRole('figure', { name: 'Review time against ETA, last 7 days' })
      const svg = chart.locator('svg.ops-chart__svg')
      expect(await svg.textContent()).toContain('Today')
      expect(await svg.textContent()).toContain('< 1 min')
      await noAxe(page, 'dashboard', js)
      await page.screenshot({ path: `${SHOTS}/dashboard-${js ? 'js' : 'nojs'}-1280.png`, fullPage: true })
      await context.close()
    })

    it('on a phone the console starts with its page, right under the desks’ row', { timeout: 60_000 }, async () => {
      // The staff session cookie of a signed-in admin, carried to a phone.
      const signed = await staffDesktop(browser, app, 'admin', js)
      const { context, page } = await phone(browser, js)
      await context.addCookies(await signed.context.cookies())
      await signed.context.close()
      for (const path of ['/ops', '/ops/people', '/ops/audit']) {
        await page.goto(`${app.url}${path}`)
        // The desks' links, not their row: a row stretched to fill the screen is the blank block.
        const links = await page.getByRole('navigation', { name: 'Desks', exact: true }).getByRole('list').boundingBox()
        const h1 = await page.getByRole('heading', { level: 1 }).boundingBox()
        expect(h1!.y - (links!.y + links!.height), path).toBeLessThan(60)
        expect(h1!.y + h1!.height, path).toBeLessThan(844)
        await noAxe(page, `${path}-390`, js)
        await page.screenshot({ path: `${SHOTS}/console${path.replaceAll('/', '-')}-${js ? 'js' : 'nojs'}-390.png` })
      }
      await context.close()
    })
  })
}
