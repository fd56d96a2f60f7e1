import { mkdirSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { gotoIn, hydrated, phone, signIn, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { adjust, walletUser } from '../support/wallet'

/**
 * The installable app (decision 048) in Debian's Chromium against the production build: the
 * service worker registers and controls the page, a navigation without network shows the offline
 * page with the balance last seen and when, sign-out clears it, a push shows a notification, and
 * the Download page offers the browser's install only when the browser offers it.
 */
const { app, browser } = useBrowserApp()
const goto = gotoIn(() => app.url)
const dir = process.env.SCREENSHOT_DIR ?? 'test-results/pwa'
mkdirSync(dir, { recursive: true })

/** Waits until public/sw.js is active and controls this page. */
async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready)
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated')
}

/** The names of this origin's caches and whether the last seen balance is among them. */
const cacheNames = (page: Page) => page.evaluate(() => caches.keys())

async function walletPhone(context?: BrowserContext) {
  const u = await walletUser(app.api, { balance: 1_234_500 })
  const made = context ? { context, page: await context.newPage() } : await phone(browser, true)
  await signIn(made.context, app.url, u.token)
  return { ...made, u }
}

describe('the service worker', () => {
  it('registers from the page after load, with its scope the whole site, and controls the page', async () => {
    const { context, page } = await phone(browser, true)
    await goto(page, true, '/download')
    await controlled(page)
    const registration = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration()
      return { scope: r?.scope, script: r?.active?.scriptURL }
    })
    expect(registration.scope).toBe(`${app.url}/`)
    expect(registration.script).toMatch(new RegExp(`^${app.url}/sw\\.js\\?v=[\\w-]+$`))
    // Installable as Chromium judges it: the manifest, the icons, a worker with a fetch handler.
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }
    // A test's browser context is incognito, which Chromium never installs from; nothing else stands in the way.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([])
    await context.close()
  })

  it('served with no-cache and its scope allowed, and admitted by the CSP', async () => {
    const res = await fetch(`${app.url}/sw.js?v=x`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('service-worker-allowed')).toBe('/')
    const page = await fetch(`${app.url}/download`)
    expect(page.headers.get('content-security-policy')).toContain("worker-src 'self'")
  })

  it('offline, a page shows the offline page with the balance last seen "as of" its time, never the browser error', async () => {
    const { context, page, u } = await walletPhone()
    await goto(page, true, '/wallet')
    await controlled(page)
    // The wallet shows the balance, and keeps it on this device for the offline page.
    await expect.poll(async () => (await cacheNames(page)).includes('cardlane-last-seen')).toBe(true)
    const seenAt = Date.now()
    await context.setOffline(true)
    await page.goto(`${app.url}/history`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You are offline')
    const card = page.locator('.cl-offline__last-seen')
    await expect.poll(() => card.textContent()).toContain('₦12,345.00')
    expect(await card.textContent()).toContain('May be out of date')
    const at = await card.locator('time').getAttribute('datetime')
    expect(Math.abs(Date.parse(at!) - seenAt)).toBeLessThan(60_000)
    expect(await card.textContent()).toMatch(/as of .+/)
    // The shell's stylesheet came from the worker's cache: the page is styled, not the browser's error.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.cl-topbar')!).position)).toBe('sticky')
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/ERR_INTERNET_DISCONNECTED|No internet/)
    expect(await axeViolations(page)).toEqual([])
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [390, 320]) {
        await page.emulateMedia({ colorScheme })
        await page.setViewportSize({ width, height: 844 })
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
        await page.screenshot({ path: `${dir}/offline-${width}-${colorScheme}.png`, fullPage: true })
      }
    }
    await context.setOffline(false)
    void u
    await context.close()
  })

  it('with no balance seen yet, the offline page says only that there is no connection', async () => {
    const { context, page } = await phone(browser, true)
    await goto(page, true, '/download')
    await controlled(page)
    await context.setOffline(true)
    await page.goto(`${app.url}/wallet`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You are offline')
    expect(await page.locator('.cl-offline__last-seen').count()).toBe(0)
    await context.close()
  })

  it('pages are never kept: back online, a page is the network answer', async () => {
    const { context, page, u } = await walletPhone()
    await goto(page, true, '/wallet')
    await controlled(page)
    await adjust(app.api, u.userId, 100_000, 'later credit')
    await goto(page, true, '/wallet')
    await expect.poll(() => page.getByText('₦13,345.00').first().isVisible()).toBe(true)
    const kept = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname)
      return urls
    })
    // The offline page, its stylesheet, and the balance snapshot: nothing else.
    expect(kept.filter((path) => !/^\/assets\/app-[\w-]+\.css$/.test(path)).sort()).toEqual(['/__last-seen', '/offline'])
    await context.close()
  })

  it('sign-out clears the balance kept for the offline page and every cache (Clear-Site-Data)', async () => {
    const { context, page } = await walletPhone()
    await goto(page, true, '/wallet')
    await controlled(page)
    await expect.poll(async () => (await cacheNames(page)).includes('cardlane-last-seen')).toBe(true)
    await goto(page, true, '/account')
    const out = page.waitForResponse((res) => res.url() === `${app.url}/logout`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect((await (await out).allHeaders())['clear-site-data']).toBe('"cache", "storage"')
    await page.waitForURL(`${app.url}/`)
    await hydrated(page)
    // The worker went with the storage; it registers again on this page, and keeps no balance.
    await expect.poll(async () => (await cacheNames(page)).includes('cardlane-last-seen')).toBe(false)
    await controlled(page)
    await context.setOffline(true)
    await page.goto(`${app.url}/wallet`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You are offline')
    expect(await page.locator('.cl-offline__last-seen').count()).toBe(0)
    await context.close()
  })
})

describe('push', () => {
  /** Delivers push messages to this origin's worker as the push service would (CDP), through one session. */
  async function pusher(context: BrowserContext, page: Page) {
    const cdp = await context.newCDPSession(page)
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string }[] }) => {
        if (registrations[0]) resolve(registrations[0].registrationId)
      }),
    )
    await cdp.send('ServiceWorker.enable')
    const id = await registrationId
    return (payload: unknown) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId: id, data: JSON.stringify(payload) })
  }

  const shown = (page: Page) =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        icon: new URL(n.icon).pathname,
        url: (n.data as { url: string }).url,
      })),
    )

  it('a push shows a notification with its title, body, tag, icon and the path it leads to', async () => {
    const { context, page } = await phone(browser, true)
    await context.grantPermissions(['notifications'], { origin: app.url })
    await goto(page, true, '/download')
    await controlled(page)
    const push = await pusher(context, page)
    await push({ title: 'Order paid', body: 'Your Amazon card was paid.', url: '/order/42?from=push', tag: 'order-42' })
    await expect
      .poll(() => shown(page))
      .toEqual([
        { title: 'Order paid', body: 'Your Amazon card was paid.', tag: 'order-42', icon: '/icon-192.png', url: '/order/42?from=push' },
      ])
    // A second push in the same session did not show here; a foreign link leading Home is checked on sw.js in tests/web/pwa.test.ts.
    await context.close()
  })
})

describe('the Download page', () => {
  for (const js of [true, false]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [390, 320]) {
        it(`JavaScript ${js ? 'on' : 'off'}, ${colorScheme}, ${width} wide: the steps for Android and iPhone, no dead Install button, axe 0`, async () => {
          const { context, page } = await phone(browser, js, { width, colorScheme })
          await goto(page, js, '/download')
          expect(await page.getByRole('heading', { name: 'Android (Chrome)' }).isVisible()).toBe(true)
          expect(await page.getByRole('heading', { name: 'iPhone and iPad (Safari)' }).isVisible()).toBe(true)
          // Headless Chromium offers no install of its own: no button until it does.
          expect(await page.getByRole('button', { name: /^Install/ }).count()).toBe(0)
          if (js) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
          // axe runs in the page's JavaScript; the markup without it is the same.
          if (js) expect(await axeViolations(page)).toEqual([])
          await page.screenshot({ path: `${dir}/download-${js ? 'js' : 'nojs'}-${width}-${colorScheme}.png`, fullPage: true })
          await context.close()
        })
      }
    }
  }

  it('when the browser offers the install: "Install Cardlane" prompts, and once installed says so', async () => {
    const { context, page } = await phone(browser, true)
    await goto(page, true, '/download')
    expect(await page.getByRole('button', { name: 'Install Cardlane' }).count()).toBe(0)
    // The browser's offer, as Chromium sends it (a prompt() and a userChoice).
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: () => {
          ;(window as unknown as { prompted: number }).prompted = 1
          return Promise.resolve()
        },
        userChoice: Promise.resolve({ outcome: 'accepted' }),
      })
      window.dispatchEvent(offer)
    })
    const install = page.getByRole('button', { name: 'Install Cardlane' })
    await expect.poll(() => install.isVisible()).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: `${dir}/download-install-390-light.png`, fullPage: true })
    await install.click()
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1)
    // An offer is used once.
    await expect.poll(() => install.count()).toBe(0)
    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')))
    await expect.poll(() => page.getByText('Cardlane is installed').isVisible()).toBe(true)
    await context.close()
  })

  for (const js of [true, false]) {
    it(`on an iPhone (its User-Agent), JavaScript ${js ? 'on' : 'off'}: Safari's steps, no Android ones, axe 0`, async () => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        javaScriptEnabled: js,
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      })
      const page = await context.newPage()
      await goto(page, js, '/download')
      expect(await page.getByRole('heading', { name: 'iPhone and iPad (Safari)' }).isVisible()).toBe(true)
      expect(await page.getByRole('heading', { name: 'Android (Chrome)' }).count()).toBe(0)
      expect(await page.getByText('Add to Home Screen').isVisible()).toBe(true)
      if (js) expect(await axeViolations(page)).toEqual([])
      await page.screenshot({ path: `${dir}/download-iphone-${js ? 'js' : 'nojs'}-390-light.png`, fullPage: true })
      await context.close()
    })
  }
})
