import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { analyticsStorageKey } from '#contract/analytics'
import { gotoIn, hydrated, phone, readFirst, signIn, startApp, TEST_PASSWORD, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { newCode } from '../support/selling'
import { PIN, walletUser } from '../support/wallet'

/**
 * Support and analytics as a person meets them: Debian Chromium, a 390×844 phone, the production
 * build and the real api. The collector's beacons reach the api (page views on every navigation,
 * the key events after sign-in, an order and a withdrawal); Do Not Track or Global Privacy Control
 * sends nothing; the floating help button is on every screen and never over a form's primary
 * button; Help & Support works without JavaScript; a chat provider's script loads only on a tap.
 */
const { app, browser } = useSellingBrowserApp('browser-support')
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'cardlane-support-shots')
mkdirSync(SHOTS, { recursive: true })

const goto = gotoIn(() => app.url)

type Row = { name: string; user_id: string | null; visitor_id: string | null; context_json: string | null }
const events = async (): Promise<Row[]> =>
  app.api.db.selectFrom('analytics_events').select(['name', 'user_id', 'visitor_id', 'context_json']).orderBy('created_at').execute()
const pathOf = (r: Row) => (r.context_json ? (JSON.parse(r.context_json) as { path?: string }).path : undefined)

/** Every request the page makes to the collector's route. */
function beacons(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/analytics') seen.push(request.postData() ?? '')
  })
  return seen
}

/** A signed-in phone for a person made through the api (PIN, bank account, balance as asked). */
async function walletPhone(js: boolean, options: Parameters<typeof walletUser>[1] = {}) {
  const u = await walletUser(app.api, options)
  const { context, page } = await phone(browser, js)
  await signIn(context, app.url, u.token)
  return { context, page, u }
}

describe('analytics with JavaScript on', () => {
  it("a visitor's page views reach the api on each navigation, with the device and a visitor id, no person", async () => {
    const { context, page } = await phone(browser, true)
    const sent = beacons(page)
    const before = (await events()).length
    await goto(page, true, '/')
    await expect.poll(async () => (await events()).slice(before).map(pathOf)).toEqual(['/'])
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell' }).click()
    await page.waitForURL(`${app.url}/order/sell`)
    await expect.poll(async () => (await events()).slice(before).map(pathOf)).toEqual(['/', '/order/sell'])
    const views = (await events()).slice(before)
    expect(views.map((v) => v.name)).toEqual(['page_view', 'page_view'])
    expect(views.map((v) => v.user_id)).toEqual([null, null])
    expect(views[0].visitor_id).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
    expect(views[1].visitor_id).toBe(views[0].visitor_id)
    expect(JSON.parse(views[0].context_json!)).toMatchObject({
      screenResolution: '390x844',
      language: expect.stringMatching(/^[a-z]{2}/),
      timezone: expect.any(String),
      userAgent: expect.stringContaining('Chrome'),
    })
    // What left the browser: the SPEC's fields, through the web's route only.
    // The request event can trail the api's write: wait for it rather than race it.
    await expect.poll(() => sent.length).toBe(2)
    expect(Object.keys(JSON.parse(sent[0])).sort()).toEqual(
      ['language', 'name', 'path', 'platform', 'screenResolution', 'timestamp', 'timezone', 'userAgent', 'visitorId'].sort(),
    )
    await context.close()
  })

  it('sign-in, an order and a withdrawal send their key events, with the person from the session', async () => {
    const { context, page, u } = await walletPhone(true, { balance: 1_000_000 })
    await context.clearCookies() // signed out: this person signs in through the form
    await goto(page, true, '/login')
    await page.getByLabel('E-mail', { exact: true }).fill(u.email)
    // walletUser's person has no password: give them one through the api's own reset.
    await app.api.post('/auth/sendEmailCode', { email: u.email, type: 2 })
    await app.api.post('/auth/resetPassword', { email: u.email, password: TEST_PASSWORD, verifyCode: app.api.lastCode(u.email, 2) })
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${app.url}/`)
    const mine = async () => (await events()).filter((e) => e.user_id === u.userId).map((e) => e.name)
    await expect.poll(mine).toContain('login')

    // An order: submitted, and the first successful order once (the storage key from the user id).
    await goto(page, true, '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100')
    await page.getByLabel('Code of card 1').fill(newCode())
    await readFirst(page)
    await page.getByRole('button', { name: /^Sell/ }).click()
    await page.waitForURL(/\/order\/submit-success\?id=/)
    await expect.poll(mine).toContain('order_submitted')
    await expect.poll(mine).toContain('first_successful_order')
    expect(await page.evaluate((key) => window.localStorage.getItem(key), analyticsStorageKey(u.userId))).not.toBeNull()

    // A withdrawal.
    await goto(page, true, '/wallet/withdraw')
    await page.getByLabel('Amount (NGN)').fill('3000')
    await page.getByLabel('Your withdrawal PIN').fill(PIN)
    await readFirst(page)
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click()
    await page.waitForURL(/\/wallet\/withdraw-success\?id=/)
    await expect.poll(mine).toContain('withdrawal_created')

    const names = await mine()
    expect(names.filter((n) => n === 'first_successful_order')).toHaveLength(1)
    expect(names.filter((n) => n === 'login')).toHaveLength(1)
    // Signed-in page views carry the person.
    expect(names.filter((n) => n === 'page_view').length).toBeGreaterThanOrEqual(3)
    // SPEC §3: every event of the person carries their e-mail, the first order's too.
    const personal = (await events()).filter((e) => e.user_id === u.userId)
    for (const e of personal) expect(JSON.parse(e.context_json ?? '{}'), e.name).toMatchObject({ userEmail: u.email })
    await context.close()
  })

  for (const signal of ['Do Not Track', 'Global Privacy Control'] as const) {
    it(`${signal}: nothing is sent, not a page view, not a sign-in, not an order`, async () => {
      const { context, page, u } = await walletPhone(true, { balance: 1_000_000 })
      // A browser with the setting on says it in its script and in every request's headers.
      await context.setExtraHTTPHeaders(signal === 'Do Not Track' ? { DNT: '1' } : { 'Sec-GPC': '1' })
      await context.addInitScript((which) => {
        if (which === 'Do Not Track') Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })
        else Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })
      }, signal)
      const sent = beacons(page)
      const before = (await events()).length
      await goto(page, true, '/')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sell' }).click()
      await page.waitForURL(`${app.url}/order/sell`)
      await goto(page, true, '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100')
      await page.getByLabel('Code of card 1').fill(newCode())
      await readFirst(page)
      await page.getByRole('button', { name: /^Sell/ }).click()
      await page.waitForURL(/\/order\/submit-success\?id=/)
      await goto(page, true, '/support')
      await page.waitForTimeout(500) // time for a beacon that should not exist
      expect(sent).toEqual([])
      // Nothing from the success page's own server either (it reads the same signal in the headers).
      expect((await events()).slice(before)).toEqual([])
      expect((await events()).some((e) => e.user_id === u.userId && e.name === 'page_view')).toBe(false)
      await context.close()
    })
  }
})

/** The box of an element in CSS pixels, or null when it is not shown. */
const box = async (page: Page, locator: ReturnType<Page['locator']>) => ((await locator.count()) ? locator.first().boundingBox() : null)
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/**
 * Scrolls the page from top to bottom; at each stop, the points of the button that are on screen
 * and whose topmost element is the help button. Empty when the help button never covers it.
 */
async function coveredAt(page: Page, button: ReturnType<Page['locator']>): Promise<string[]> {
  const handle = await button.elementHandle()
  // Synchronous: layout is read afresh after each scroll (and works with JavaScript off).
  return page.evaluate((target) => {
    const found: string[] = []
    const end = document.documentElement.scrollHeight - window.innerHeight
    for (let y = 0; y <= end + 40; y += 40) {
      window.scrollTo(0, Math.min(y, end))
      const r = (target as Element).getBoundingClientRect()
      // Under the sticky top bar the bar hides the button, whatever sits in it.
      const barBottom = document.querySelector('header.cl-topbar')!.getBoundingClientRect().bottom
      for (const px of [r.left + 4, r.left + r.width / 2, r.right - 30, r.right - 4]) {
        for (const py of [r.top + 4, r.top + r.height / 2, r.bottom - 4]) {
          if (px < 0 || py < barBottom || px >= window.innerWidth || py >= window.innerHeight) continue
          if (document.elementFromPoint(px, py)?.closest('.cl-chat'))
            found.push(`scroll ${window.scrollY}: ${Math.round(px)},${Math.round(py)}`)
        }
      }
    }
    return found
  }, handle)
}

describe('the help button', () => {
  // The forms of the brief: the help button is not even beside their button, at rest or at the end.
  // `scrollsPast`: a button in the page's flow that may pass the help button (drawn on top of it).
  const screensWithPrimary: { path: string; primary: RegExp; signedIn?: boolean; scrollsPast?: boolean }[] = [
    { path: '/', primary: /^(Continue to sell|Check rate)$/, scrollsPast: true },
    { path: '/login', primary: /^Sign in$/ },
    { path: '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100', primary: /^Sign in to sell$/ },
    { path: '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100', primary: /^Sell/, signedIn: true },
    { path: '/wallet/withdraw', primary: /^Withdraw$/, signedIn: true },
  ]

  for (const js of [true, false]) {
    for (const { path, primary, signedIn, scrollsPast } of screensWithPrimary) {
      it(`JavaScript ${js ? 'on' : 'off'}, ${path}${signedIn ? ' signed in' : ''}: in the top bar, never over the primary button`, async () => {
        let context: BrowserContext
        let page: Page
        if (signedIn) ({ context, page } = await walletPhone(js, { balance: 1_000_000 }))
        else ({ context, page } = await phone(browser, js))
        await goto(page, js, path)
        const help = page.getByRole('banner').getByRole('link', { name: 'Help & Support' })
        await expect.poll(() => help.isVisible()).toBe(true)
        const name = `${js ? 'js' : 'nojs'}${signedIn ? '-member' : ''}${new URL(path, app.url).pathname.replace(/\//g, '-')}`.replace(
          /-$/,
          '-home',
        )
        await page.screenshot({ path: join(SHOTS, `fab-${name}.png`) })
        const fab = (await help.boundingBox())!
        const bar = (await page.getByRole('banner').boundingBox())!
        expect(fab.x + fab.width).toBeGreaterThan(390 - 60) // at the right end of the top bar
        expect(fab.y + fab.height).toBeLessThanOrEqual(bar.y + bar.height) // inside it: over no content
        const button = page.getByRole('button', { name: primary })
        const tabs = await box(page, page.getByRole('navigation', { name: 'Main' }))
        if (tabs) expect(overlaps(fab, tabs)).toBe(false)
        if (!scrollsPast) {
          // 390×844: not even beside it, at the top of the page or at its end.
          expect(overlaps(fab, (await button.boundingBox())!), `${path}: the help button is over "${primary}"`).toBe(false)
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
          await page.waitForTimeout(150)
          expect(overlaps((await help.boundingBox())!, (await button.boundingBox())!)).toBe(false)
        }
        // Wherever the page is scrolled, no part of the button is under the help button.
        expect(await coveredAt(page, button)).toEqual([])
        // 320×568: wherever the page is scrolled, no part of the primary button is under the help button.
        await page.setViewportSize({ width: 320, height: 568 })
        expect(await coveredAt(page, button)).toEqual([])
        await page.evaluate(() => window.scrollTo(0, 0))
        await page.screenshot({ path: join(SHOTS, `fab-320-${name}.png`) })
        await context.close()
      })
    }
  }

  it('leads to Help & Support, whose answers open without JavaScript', async () => {
    const { context, page } = await phone(browser, false)
    await goto(page, false, '/user/privacy')
    await page.getByRole('link', { name: 'Help & Support' }).click()
    await page.waitForURL(`${app.url}/support`)
    await expect.poll(() => page.title()).toBe('Help & Support - Cardlane')
    expect(await page.getByRole('link', { name: 'E-mail us' }).getAttribute('href')).toBe('mailto:support@cardlane.local')
    await expect.poll(() => page.getByText('support@cardlane.local', { exact: true }).isVisible()).toBe(true)
    const answer = page.getByText(/After 5 wrong tries, PIN actions are locked for 30 minutes/)
    expect(await answer.isVisible()).toBe(false)
    await readFirst(page)
    await page.getByText('My withdrawal PIN: wrong tries, the lock and Forgot PIN').click()
    await expect.poll(() => answer.isVisible()).toBe(true)
    await readFirst(page)
    await page.getByText('Withdrawals: the minimum, the fee and the daily maximum').click()
    await expect.poll(() => page.getByText('Smallest withdrawal (fee included)').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('₦1,000.00').first().isVisible()).toBe(true)
    // Already here: no button that leads to this page again.
    expect(await page.getByRole('link', { name: 'Help & Support' }).count()).toBe(0)
    await context.close()
  })

  it('with a chat provider: its script loads only when the button is tapped, then its window is asked to open', async () => {
    const provider = await startFakeProvider()
    process.env.CHAT_WIDGET_URL = `${provider.url}/widget.js`
    const chatApp = await startApp() // server.ts makes the CSP with the provider's origin at start
    try {
      const { context, page } = await phone(browser, true)
      // /login: nothing passes under the button at rest (on Home the rate checker's button does, and it tucks away).
      await page.goto(`${chatApp.url}/login`)
      await hydrated(page)
      await page.waitForTimeout(300)
      expect(provider.requests).toEqual([])
      expect(await page.locator('script[data-cl-chat]').count()).toBe(0)
      await page.evaluate(() => window.addEventListener('cardlane:chat-open', () => ((window as { opened?: number }).opened = 1)))
      await page.getByRole('link', { name: 'Chat with support' }).click()
      await expect.poll(() => page.evaluate(() => (window as { fakeChatLoaded?: boolean }).fakeChatLoaded === true)).toBe(true)
      await expect.poll(() => page.evaluate(() => (window as { opened?: number }).opened)).toBe(1)
      expect(provider.requests).toEqual(['/widget.js'])
      expect(new URL(page.url()).pathname).toBe('/login') // the chat opened here; no navigation to /support
      await context.close()
    } finally {
      delete process.env.CHAT_WIDGET_URL
      process.env.API_BASE_URL = app.api.url // startApp pointed the web at the second app's api
      await chatApp.close()
      await provider.close()
    }
  })
})

describe('screens at 390×844, light and dark, and axe-core', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: /support and /download have no violations`, async () => {
      // /download as a deployment shows it: the public address (for the QR code) and the stores.
      Object.assign(process.env, {
        PUBLIC_URL: app.url,
        APP_STORE_URL: 'https://apps.apple.com/app/id000000000',
        PLAY_STORE_URL: 'https://play.google.com/store/apps/details?id=example.cardlane',
      })
      const { context, page } = await phone(browser, true, { colorScheme })
      const found: string[] = []
      for (const path of ['/support', '/download']) {
        await goto(page, true, path)
        await page.screenshot({ path: join(SHOTS, `${path.slice(1)}-${colorScheme}.png`) })
        if (path === '/support') {
          for (const summary of await page.locator('summary').all()) await summary.click()
          for (const id of ['rates', 'withdrawals', 'pin'])
            await page.locator(`#${id}`).screenshot({ path: join(SHOTS, `support-${id}-${colorScheme}.png`) })
        } else {
          const qr = page.getByRole('img', { name: `QR code: scan it with your phone's camera to open ${app.url}/` })
          await expect.poll(() => qr.isVisible()).toBe(true)
          expect(await qr.locator('svg').count()).toBe(1)
          expect(await page.getByRole('link', { name: 'Get it on Google Play' }).getAttribute('href')).toBe(process.env.PLAY_STORE_URL)
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
          await page.screenshot({ path: join(SHOTS, `download-end-${colorScheme}.png`) })
        }
        const violations = await axeViolations(page, { keepToasts: true })
        found.push(...violations.map((v) => `${path} ${v}`))
      }
      for (const name of ['PUBLIC_URL', 'APP_STORE_URL', 'PLAY_STORE_URL']) delete process.env[name]
      expect(found).toEqual([])
      await context.close()
    })
  }
})

/** A stand-in chat provider: one script that says it ran. Counts what it was asked for. */
async function startFakeProvider(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    res.setHeader('content-type', 'text/javascript')
    res.end('window.fakeChatLoaded = true')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
