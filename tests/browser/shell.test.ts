import { describe, expect, it } from 'vitest'
import { seedUser } from '../support/api'
import { hydrated, phone, readFirst, signedInPhone, signIn, toast, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { newEmail } from '../support/kit'

/** The shell every screen shares: toasts, top bar, help button, tab bar, icons, accessibility. */
const { app, browser } = useBrowserApp()

describe('the shell (SPEC §2)', () => {
  it('sets --vh, suppresses a second tap within 300 ms, and answers 404 for screens not built yet', async () => {
    const { context, page } = await phone(browser, true)
    await page.goto(`${app.url}/`)
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '')
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--vh'))).toBe(`${844 * 0.01}px`)
    await page.setViewportSize({ width: 390, height: 700 })
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') === '7px')

    const counted = await page.evaluate(async () => {
      const clicks = { a: 0, b: 0, field: 0 }
      const a = document.createElement('button')
      const b = document.createElement('button')
      const field = document.createElement('input')
      const label = document.createElement('label')
      const box = document.createElement('input')
      box.type = 'checkbox'
      label.append(box, 'Agree')
      a.addEventListener('click', () => clicks.a++)
      b.addEventListener('click', () => clicks.b++)
      field.addEventListener('click', () => clicks.field++)
      document.body.append(a, b, field, label)
      a.click()
      a.click() // within 300 ms on the same control: suppressed
      b.click() // within 300 ms on another control: suppressed too
      field.click() // a field is not a control: tapping it is never held
      await new Promise((r) => setTimeout(r, 350))
      b.click() // after 300 ms: goes through
      await new Promise((r) => setTimeout(r, 350))
      label.click() // the label hands its tap to its box: one tap, and the box is ticked
      const ticked = box.checked
      for (const el of [a, b, field, label]) el.remove()
      return { ...clicks, ticked }
    })
    expect(counted).toEqual({ a: 1, b: 1, field: 1, ticked: true })

    const res = await page.goto(`${app.url}/no-such-page`)
    expect(res?.status()).toBe(404)
    expect(await page.title()).toBe('Page not found - Cardlane')
    await context.close()
  })

  it('a second tap on another link within 300 ms is suppressed: only the first navigation happens', async () => {
    const { context, page } = await signedInPhone(browser, app)
    await page.goto(`${app.url}/`)
    await hydrated(page)
    const tabs = page.getByRole('navigation', { name: 'Main' })
    // Both taps in one task: well within 300 ms however loaded the machine is.
    await page.evaluate(() => {
      const tab = (href: string) => document.querySelector<HTMLElement>(`nav[aria-label="Main"] a[href="${href}"]`)!
      tab('/order/sell').click()
      tab('/history').click()
    })
    await page.waitForURL(`${app.url}/order/sell`)
    await expect.poll(() => tabs.getByRole('link', { name: 'Sell' }).getAttribute('aria-current')).toBe('page')
    await readFirst(page)
    expect(new URL(page.url()).pathname).toBe('/order/sell')
    // A tap after 300 ms is a new intention.
    await tabs.getByRole('link', { name: 'Orders' }).click()
    await page.waitForURL(`${app.url}/history`)
    await context.close()
  })

  it('a new navigation starts at the top; Back returns to where the person was (<ScrollRestoration>)', async () => {
    const { context, page } = await phone(browser, true)
    await page.goto(`${app.url}/user/privacy`)
    await hydrated(page)
    await page.evaluate(() => window.scrollTo(0, 600))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600)
    // A click where the page is (Playwright's own click would first scroll the link into view).
    await page.getByRole('link', { name: 'Back' }).evaluate((link) => (link as HTMLElement).click())
    await page.waitForURL(/\/$/)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    await page.goBack()
    await page.waitForURL(`${app.url}/user/privacy`)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600)
    // Forward again is the page as it was left: at its top.
    await page.goForward()
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

describe('toasts', () => {
  it('close by themselves without JavaScript (CSS), after their duration', async () => {
    const { context, page } = await phone(browser, false)
    await page.goto(`${app.url}/account`) // a visitor: sent to /login with an info toast
    const shown = toast(page).getByRole('status')
    expect(await shown.textContent()).toContain('Please sign in to continue')
    await expect.poll(() => shown.isVisible()).toBe(true)
    // Info toasts last 3000 ms; give a loaded machine slack, but it must go by itself.
    await expect.poll(() => shown.isVisible(), { timeout: 8000, interval: 250 }).toBe(false)
    expect(await toast(page).count()).toBe(1) // hidden by CSS, not removed: no script ran
    await context.close()
  })

  it('a newer toast replaces the older one, and neither covers the top bar', async () => {
    const { context, page } = await phone(browser, true)
    const email = newEmail('toasts')
    await seedUser(app.api, { email })
    await page.goto(`${app.url}/account`)
    await hydrated(page)
    await expect.poll(() => toast(page).textContent()).toContain('Please sign in to continue')
    await page.getByRole('link', { name: 'E-mail code' }).click()
    // The code form has arrived (the password form has an E-mail field too: typing sooner could land in it).
    await page.getByRole('button', { name: 'Send code' }).waitFor()
    await page.getByLabel('E-mail', { exact: true }).fill(email)
    await readFirst(page)
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect.poll(() => toast(page).textContent()).toContain('We sent a 6-digit code')
    expect(await toast(page).count()).toBe(1)
    expect(await page.getByText('Please sign in to continue').count()).toBe(0)

    // Once it has slid in, it sits under the top bar, not over its back link, title or help.
    const bar = (await page.getByRole('banner').boundingBox())!
    await expect.poll(async () => (await toast(page).getByRole('status').boundingBox())!.y).toBeGreaterThanOrEqual(bar.y + bar.height)
    await context.close()
  })
})

describe("links (Remix's <Link> and <NavLink>)", () => {
  it('a tab tap is a client navigation, the current tab is marked, and a tab prefetches on intent', async () => {
    const { context, page } = await signedInPhone(browser, app)
    const refusedByCsp: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusedByCsp.push(message.text())
    })
    await page.goto(`${app.url}/account`)
    await hydrated(page)
    const tabs = page.getByRole('navigation', { name: 'Main' })
    expect(await tabs.getByRole('link', { name: /^Account/ }).getAttribute('aria-current')).toBe('page')
    // A mark on this document: a full page load would lose it.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))

    await tabs.getByRole('link', { name: 'Orders' }).click()
    await page.waitForURL(`${app.url}/history`)
    await expect.poll(() => tabs.getByRole('link', { name: 'Orders' }).getAttribute('aria-current')).toBe('page')
    expect(await tabs.getByRole('link', { name: /^Account/ }).getAttribute('aria-current')).toBeNull()
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)

    // Nothing prefetched before the intent; hovering a tab fetches its screen's data ahead of the tap.
    expect(await page.locator('link[rel="prefetch"][href^="/_root.data"]').count()).toBe(0)
    await tabs.getByRole('link', { name: 'Home' }).hover()
    await expect.poll(() => page.locator('link[rel="prefetch"][href^="/_root.data"]').count()).toBeGreaterThan(0)
    // Every inline script (the scroll restoration's too) carried the CSP nonce: none was refused.
    expect(refusedByCsp).toEqual([])

    // Back through history is the router's too.
    await page.goBack()
    await page.waitForURL(`${app.url}/account`)
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    await context.close()
  })
})

describe('forms', () => {
  it('a pending Save stays idle when Back is tapped (only its own submission makes it spin)', async () => {
    const { context, page } = await signedInPhone(browser, app)
    await page.goto(`${app.url}/edit-profile`)
    await hydrated(page)
    // Hold the Back navigation's data request, so the app sits in "loading" while we look.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/account\.data/, async (route) => {
      await held
      await route.continue()
    })
    await page.getByRole('link', { name: 'Back' }).click()
    await page.waitForTimeout(300)
    expect(new URL(page.url()).pathname).toBe('/edit-profile') // still loading Account
    const save = page.getByRole('button', { name: 'Save' })
    expect(await save.getAttribute('aria-busy')).toBeNull()
    release()
    await page.waitForURL(`${app.url}/account`)
    await context.close()
  })
})

describe('the help button and the segmented switch', () => {
  it('help sits in the top bar and leads to Help & Support (that it covers nothing: tests/browser/in-view.test.ts)', async () => {
    const { context, page } = await phone(browser, true, { width: 320, height: 568 })
    await page.goto(`${app.url}/login`)
    const help = page.getByRole('banner').getByRole('link', { name: 'Help & Support' })
    await expect.poll(() => help.isVisible()).toBe(true)
    expect(await help.getAttribute('href')).toBe('/support')
    await context.close()
  })

  it('the chosen segment stands out in dark mode', async () => {
    const { context, page } = await phone(browser, false, { colorScheme: 'dark' })
    await page.goto(`${app.url}/login`)
    const look = (name: string) =>
      page.getByRole('link', { name, exact: true }).evaluate((el) => {
        const style = getComputedStyle(el)
        return { background: style.backgroundColor, color: style.color }
      })
    const [chosen, other] = [await look('Password'), await look('E-mail code')]
    const track = await page.getByRole('navigation', { name: 'How to sign in' }).evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(contrast(chosen.background, track)).toBeGreaterThan(1.5)
    expect(chosen.color).not.toBe(other.color)
    await context.close()
  })
})

describe('home-screen icons', () => {
  it('links an apple-touch-icon and lists PNG icons in the manifest, all served', async () => {
    const html = await (await fetch(`${app.url}/download`)).text()
    expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-touch-icon.png"/)
    const manifest = await (await fetch(`${app.url}/site.webmanifest`)).json()
    const pngs = manifest.icons.filter((i: { type: string }) => i.type === 'image/png').map((i: { sizes: string }) => i.sizes)
    expect(pngs).toEqual(expect.arrayContaining(['192x192', '512x512']))
    for (const icon of ['/apple-touch-icon.png', ...manifest.icons.map((i: { src: string }) => i.src)]) {
      const res = await fetch(`${app.url}${icon}`)
      expect(res.status, icon).toBe(200)
      expect(res.headers.get('content-type'), icon).toMatch(/^image\//)
    }
  })
})

describe('the production build', () => {
  // tests/web/server.test.ts asks the same of a build made of the source modules; this one runs
  // `npm run build`'s bundle, where the web process and the routes are two bundles (the memo once
  // was two tables; now it travels in the load context).
  it('a signed-in page makes one /v1/user/index call between the root and its own loader', async () => {
    const { token } = await seedUser(app.api, { email: newEmail('onecall'), password: null })
    const { context } = await phone(browser, false)
    await signIn(context, app.url, token)
    const calls = () => app.api.logs.filter((l) => JSON.parse(l).path === '/v1/user/index').length
    for (const path of ['/', '/account', '/notification']) {
      const before = calls()
      const res = await context.request.get(`${app.url}${path}`)
      expect(res.status(), path).toBe(200)
      expect(calls() - before, path).toBe(1)
    }
    await context.close()
  })
})

describe('accessibility (axe-core) on every screen, light and dark', () => {
  const visitor = [
    '/',
    '/login',
    '/login?mode=code',
    '/register',
    '/forgot-password',
    '/download',
    '/user/privacy',
    '/support',
    '/no-such-page',
  ]
  const member = ['/', '/account', '/edit-profile', '/notification', '/tasks', '/delete-account']

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: no violations`, async () => {
      const { context, page } = await phone(browser, true, { colorScheme })
      const { token } = await seedUser(app.api, { email: newEmail('axe') })
      const found: string[] = []
      const audit = async (path: string) => {
        await page.goto(`${app.url}${path}`)
        await hydrated(page)
        // Toasts fade in; audit the page as it rests.
        const violations = await axeViolations(page)
        found.push(...violations.map((v) => `${path} ${v}`))
      }
      for (const path of visitor) await audit(path)
      await signIn(context, app.url, token)
      for (const path of member) await audit(path)
      expect(found).toEqual([])
      await context.close()
    })
  }
})

/** WCAG contrast ratio of two computed rgb() colours. */
function contrast(a: string, b: string) {
  const lum = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? [])
      .slice(0, 3)
      .map(Number)
      .map((c) => {
        const s = c / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}
