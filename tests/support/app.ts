import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { commitSession, getSession } from '../../app/utils/session.server'
import { createWebApp, loadBuild } from '../../server/app'
import { seedUser, startTestApi, type StartTestApiOptions, type TestApi } from './api'
import { newEmail } from './kit'
import { sellingConfig, useUploadDir } from './selling'

/**
 * The whole app for browser tests: the real api on a throw-away database and the real web
 * (the production Remix build behind server/'s Express), both on free ports of 127.0.0.1.
 */
export type RunningApp = { url: string; api: TestApi; close(): Promise<void> }

export async function startApp(options: StartTestApiOptions = {}): Promise<RunningApp> {
  const buildPath = path.resolve('build/server/index.js')
  if (!existsSync(buildPath)) throw new Error('No build: run `npm run build` first (npm test does).')
  const api = await startTestApi(options)
  process.env.API_BASE_URL = api.url
  // Both builds, as the web process serves them (decision 052): the customer's, and the console's under /ops.
  const app = createWebApp(await loadBuild(buildPath), { ops: await loadBuild(path.resolve('build/ops/server/index.js')) })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}`,
    api,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await api.close()
    },
  }
}

/**
 * The whole app and a Chromium for one test file: started in beforeAll, closed in afterAll, as
 * useTestApi() does for the api. Use the returned objects inside tests only; they forward to the
 * running app and browser.
 */
export function useBrowserApp(options: StartTestApiOptions = {}): { app: RunningApp; browser: Browser } {
  let app: RunningApp | undefined
  let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined
  beforeAll(async () => {
    app = await startApp(options)
    chrome = await launchChromium()
  })
  afterAll(async () => {
    await chrome?.close()
    await app?.close()
  })
  const forward = <T extends object>(name: string, current: () => T | undefined) =>
    new Proxy({} as T, {
      get(_target, key) {
        const target = current()
        if (!target) throw new Error(`useBrowserApp(): the ${name} is started in beforeAll; use it inside tests`)
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  return { app: forward('app', () => app), browser: forward('browser', () => chrome?.browser) }
}

/** useBrowserApp with selling on, as useSellingApi sets it: the test e-code key and photos in a throw-away folder. */
export function useSellingBrowserApp(tag: string): { app: RunningApp; browser: Browser; uploadDir: string } {
  const uploadDir = useUploadDir(tag)
  return { ...useBrowserApp({ config: { selling: sellingConfig(uploadDir) } }), uploadDir }
}

/** Debian's Chromium, headless, with nothing that calls home (the machine has no internet). */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  // playwright's launch() gives every run a fresh, temporary user-data dir of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  return {
    browser,
    async close() {
      await browser.close()
    },
  }
}

/** A phone: 390×844 (or `width` wide), touch, with JavaScript on or off, light or dark. */
export async function phone(
  browser: Browser,
  javaScriptEnabled: boolean,
  { width = 390, height = 844, colorScheme = 'light' }: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled,
    colorScheme,
  })
  const page = await context.newPage()
  return { context, page }
}

/**
 * A browser already signed in: the session cookie the web would set after sign-in, made by the
 * web's own session code (same secret), for tests whose subject is not signing in.
 */
export async function signIn(context: BrowserContext, url: string, token: string) {
  const session = await getSession(new Request(url))
  session.set('token', token)
  const [pair] = (await commitSession(session)).split(';')
  const eq = pair.indexOf('=')
  await context.addCookies([{ name: pair.slice(0, eq), value: pair.slice(eq + 1), url, httpOnly: true, sameSite: 'Lax' }])
}

export const TEST_PASSWORD = 'violet tangerine harbour'

/** A phone signed in as a person seeded straight into the api's database (no sign-up through the UI). */
export async function signedInPhone(
  browser: Browser,
  app: RunningApp,
  {
    js = true,
    email = newEmail('seeded'),
    userName,
    ...look
  }: { js?: boolean; email?: string; userName?: string } & Parameters<typeof phone>[2] = {},
) {
  const { user, token } = await seedUser(app.api, { email, password: TEST_PASSWORD, userName })
  const { context, page } = await phone(browser, js, look)
  await signIn(context, app.url, token)
  return { context, page, email, user, token }
}

/** The toast region every page has (the root's <Toaster>). */
export const toast = (page: Page) => page.getByRole('region', { name: 'Notifications' })

/** Waits until the toast says `text`. */
export const expectToast = (page: Page, text: string) => expect.poll(() => toast(page).textContent()).toContain(text)

/** The app has hydrated: the shell set --vh (utils/shell.ts), so clicks are React's. */
export const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.style.getPropertyValue('--vh') !== '')

/** Past the shell's 300 ms double-tap guard before tapping again. */
export const readFirst = (page: Page) => page.waitForTimeout(350)

/** `goto(page, js, path)` for one app (its URL read when called): opens the page and, with JavaScript, waits for hydration. */
export function gotoIn(appUrl: () => string) {
  return async (page: Page, js: boolean, path: string) => {
    await page.goto(`${appUrl()}${path}`)
    if (js) await hydrated(page)
  }
}
