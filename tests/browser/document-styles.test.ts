import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hydrated, phone, signedInPhone, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'

/**
 * The first document carries its stylesheets inline (decision 058): nothing holds its first paint
 * but the document itself. A screen reached by client navigation gets its own sheet, linked.
 * Debian Chromium, a 390×844 phone, the production build.
 */
const { app, browser } = useBrowserApp()

/** The stylesheets a page requested, by path. */
function stylesheetRequests(page: Page) {
  const paths: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') paths.push(new URL(request.url()).pathname)
  })
  return paths
}

/** A rule of the shell's sheet (body margin) and one of the auth screens' (the lead's muted colour). */
const loginLooks = (page: Page) =>
  page.evaluate(() => ({
    bodyMargin: getComputedStyle(document.body).margin,
    authGap: getComputedStyle(document.querySelector('.cl-auth')!).rowGap,
  }))

describe('the first document carries its own styles (decision 058)', () => {
  it('links no stylesheet: the shell and the screen come inline, carrying the response nonce', async () => {
    for (const path of ['/', '/login']) {
      const res = await fetch(`${app.url}${path}`)
      const html = await res.text()
      expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/)
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]
      const styles = [...html.matchAll(/<style nonce="([^"]+)" data-stylesheet="([^"]+)">/g)].map((m) => ({ nonce: m[1], href: m[2] }))
      expect(styles.map((s) => s.href)).toEqual([
        expect.stringMatching(/^\/assets\/app-/),
        expect.stringMatching(path === '/' ? /^\/assets\/home-/ : /^\/assets\/auth-/),
      ])
      expect(styles.every((s) => s.nonce === nonce)).toBe(true)
    }
  })

  it.each([true, false])('JavaScript %s: the screen is styled without asking for a stylesheet', async (js) => {
    const { context, page } = await phone(browser, js)
    const asked = stylesheetRequests(page)
    await page.goto(`${app.url}/login`)
    if (js) await hydrated(page)
    // Unstyled, the body keeps the browser's 8px and the column's gap is normal.
    expect(await loginLooks(page)).toEqual({ bodyMargin: '0px', authGap: '20px' })
    expect(asked).toEqual([])
    await context.close()
  })

  it('a screen reached by client navigation gets its sheet, and the screen left takes its own away', async () => {
    const { context, page } = await phone(browser, true)
    await page.goto(`${app.url}/`)
    await hydrated(page)
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))
    const asked = stylesheetRequests(page)
    await page.getByRole('link', { name: 'Sign in' }).first().click()
    await page.waitForURL(`${app.url}/login`)
    await page.locator('.cl-auth').waitFor()
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    expect(await loginLooks(page)).toEqual({ bodyMargin: '0px', authGap: '20px' })
    expect(asked).toEqual([expect.stringMatching(/^\/assets\/auth-/)])
    // Home's rules went with Home; the shell's stay inline.
    expect(
      await page.evaluate(() => [...document.querySelectorAll('style[data-stylesheet]')].map((s) => s.getAttribute('data-stylesheet'))),
    ).toEqual([expect.stringMatching(/^\/assets\/app-/)])
    // Back to Home: its sheet now comes linked, and Home is styled again.
    await page.goBack()
    await page.waitForURL(`${app.url}/`)
    await page.locator('.cl-hero').waitFor()
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.cl-hero')!).display)).toBe('flex')
    expect(asked).toEqual([expect.stringMatching(/^\/assets\/auth-/), expect.stringMatching(/^\/assets\/home-/)])
    await context.close()
  })
})

describe('target size on Home (WCAG 2.5.8, axe target-size)', () => {
  // Lighthouse's phone (412×823), ours, a small one and heights in between: the rate checker's
  // Continue button is wherever the height puts it, never half under the visitor's tab bar.
  const SIZES = [
    { width: 412, height: 823 },
    { width: 390, height: 844 },
    { width: 320, height: 568 },
    ...[600, 660, 700, 740, 780, 800, 860, 900, 960].map((height) => ({ width: 390, height })),
  ]

  it('a visitor: nothing on the page is partly covered by the tab bar, at any of these heights', async () => {
    const failing: string[] = []
    for (const size of SIZES) {
      const { context, page } = await phone(browser, true, size)
      await page.goto(`${app.url}/`)
      await hydrated(page)
      for (const v of await axeViolations(page, { rules: ['target-size'] })) failing.push(`${size.width}×${size.height} ${v}`)
      await context.close()
    }
    expect(failing).toEqual([])
  })

  it('a signed-in person keeps the bar over the page, at 412×823 too', async () => {
    const { context, page } = await signedInPhone(browser, app, { width: 412, height: 823 })
    await page.goto(`${app.url}/`)
    await hydrated(page)
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.cl-tabbar')!).position)).toBe('sticky')
    expect(await axeViolations(page, { rules: ['target-size'] })).toEqual([])
    await context.close()
  })
})
