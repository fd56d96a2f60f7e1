import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { seedUser, startFakeGoogle, TEST_GOOGLE_CLIENT_ID, type FakeGoogle, stubGoogleEndpoints } from '../support/api'
import {
  expectToast,
  gotoIn,
  launchChromium,
  phone,
  readFirst,
  type RunningApp,
  signedInPhone,
  signIn,
  startApp,
  TEST_PASSWORD,
} from '../support/app'
import { axeViolations } from '../support/axe'
import { newEmail } from '../support/kit'

/**
 * Edit Profile with a photo, and linking Google, as a person does them: Debian Chromium, a 390×844
 * phone, JavaScript on and off, the production build and the real api on a throw-away database
 * (photos in a temporary folder). Google is faked at its edges: the browser's trip to
 * accounts.google.com comes straight back with a code (Playwright routes it), and the web's call
 * to Google's token endpoint answers an id_token signed by a local key the api trusts.
 */
let app: RunningApp
let chrome: Awaited<ReturnType<typeof launchChromium>>
let browser: Browser
let fakeGoogle: FakeGoogle
let nextIdToken = ''
const uploadDir = mkdtempSync(join(tmpdir(), 'cardlane-browser-avatars-'))

beforeAll(async () => {
  fakeGoogle = await startFakeGoogle()
  process.env.GOOGLE_CLIENT_ID = TEST_GOOGLE_CLIENT_ID
  process.env.GOOGLE_CLIENT_SECRET = 'test-secret'
  app = await startApp({
    config: {
      googleJwksUrl: fakeGoogle.jwksUrl,
      selling: {
        codesKey: 'test-codes-key-0123456789abcdef-0123456789',
        storage: { driver: 'disk', dir: uploadDir },
        uploadsPerDay: 500,
        offerAnswerMs: 48 * 3_600_000,
      },
    },
  })
  stubGoogleEndpoints({ idToken: () => nextIdToken })
  chrome = await launchChromium()
  browser = chrome.browser
})
afterAll(async () => {
  vi.unstubAllGlobals()
  delete process.env.GOOGLE_CLIENT_ID
  delete process.env.GOOGLE_CLIENT_SECRET
  await chrome?.close()
  await app?.close()
  await fakeGoogle?.close()
  rmSync(uploadDir, { recursive: true, force: true })
})

const goto = gotoIn(() => app.url)

/** A photo of noise (it does not compress: about 1.4 MB, so the upload takes a few progress events). */
async function noisyPng(side = 700): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer()
}

/** The file input, whichever way it is labelled (the "Add a photo" button with JavaScript, "Profile photo" without). */
const photoInput = (page: Page) => page.locator('input[type=file]')

/** True once the image has loaded real pixels. */
const loaded = (page: Page, name: string) =>
  page
    .getByRole('img', { name, exact: true })
    .first()
    .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('a new photo and nickname: saved, and the avatar shows on Account', async () => {
      const { context, page, user, token } = await signedInPhone(browser, app, { js, userName: 'Before Photo' })
      await goto(page, js, '/edit-profile')
      expect(await page.getByLabel('E-mail').inputValue()).toBe(user.email)
      expect(await page.getByLabel('E-mail').getAttribute('readonly')).not.toBeNull()

      if (js) {
        // A phone's upload (1 MB a second up): on loopback the 1.5 MB photo would be sent before
        // Chromium reports any progress, and the page would go straight to "ready".
        const cdp = await context.newCDPSession(page)
        await cdp.send('Network.enable')
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 20,
          downloadThroughput: -1,
          uploadThroughput: 1_000_000,
        })
        // Watch the page while the photo goes up: the progress bar and how far it got.
        await page.evaluate(() => {
          const seen = { progress: false, max: 0 }
          ;(window as unknown as { seen: typeof seen }).seen = seen
          new MutationObserver(() => {
            const bar = document.querySelector<HTMLProgressElement>('progress[aria-label="Uploading photo"]')
            if (bar) {
              seen.progress = true
              seen.max = Math.max(seen.max, bar.value)
            }
          }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
        })
      }
      await photoInput(page).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await noisyPng() })
      if (js) {
        // Drawn at once from the file, then uploaded with its progress.
        await expect.poll(() => page.getByRole('img', { name: 'Preview of your new photo' }).isVisible()).toBe(true)
        await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toBe('New photo ready. Save to use it.')
        const seen = await page.evaluate(() => (window as unknown as { seen: { progress: boolean; max: number } }).seen)
        expect(seen.progress).toBe(true)
        expect(seen.max).toBeGreaterThan(0)
      }
      await page.getByLabel('Nickname').fill('Ada Pictured')
      await readFirst(page)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.waitForURL(`${app.url}/account`)
      await expectToast(page, 'Profile updated')

      const info = (await app.api.get<{ userInfo: { userName: string; headImg: string } }>('/v1/user/index', { token })).body.data.userInfo
      expect(info.userName).toBe('Ada Pictured')
      expect(info.headImg).toMatch(/^\/avatar\/[0-9a-f-]{36}$/)
      const avatar = page.getByRole('img', { name: 'Ada Pictured', exact: true }).first()
      expect(await avatar.getAttribute('src')).toBe(info.headImg)
      await expect.poll(() => loaded(page, 'Ada Pictured')).toBe(true)
      expect(await avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256)
      await context.close()
    })

    it('a text file renamed .png and an empty nickname: clear messages, nothing changed', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js, userName: 'Stays Same' })
      await goto(page, js, '/edit-profile')
      await photoInput(page).setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture\n'.repeat(100)) })
      if (js) {
        // The api reads the bytes: refused before anything is saved.
        await expect
          .poll(() => page.getByText('This file is not a photo. Upload a JPEG, PNG or WebP image').isVisible(), { timeout: 15_000 })
          .toBe(true)
      } else {
        await readFirst(page)
        await page.getByRole('button', { name: 'Save' }).click()
        await page.waitForURL(`${app.url}/edit-profile`)
        await expect.poll(() => page.getByText('This file is not a photo. Upload a JPEG, PNG or WebP image').isVisible()).toBe(true)
      }
      await page.getByLabel('Nickname').fill('')
      await readFirst(page)
      await page.getByRole('button', { name: 'Save' }).click()
      if (js) await expect.poll(() => page.getByText('Nickname is required').isVisible()).toBe(true)
      // Without JavaScript the browser itself holds the form (the field is required); the server
      // says the same sentence to anything that gets past it (tests/web/edit-profile.test.ts).
      else expect(await page.getByLabel('Nickname').evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true)
      expect(new URL(page.url()).pathname).toBe('/edit-profile')
      const info = (await app.api.get<{ userInfo: { userName: string; headImg: string | null } }>('/v1/user/index', { token })).body.data
        .userInfo
      expect(info).toMatchObject({ userName: 'Stays Same', headImg: null })
      await context.close()
    })

    it('Link Google through Google (faked): back on Account with "Google account linked", the e-mail shown', async () => {
      const { context, page, user } = await signedInPhone(browser, app, { js })
      const googleEmail = `linked.${js ? 'js' : 'nojs'}.${Date.now()}@gmail.com`
      nextIdToken = await fakeGoogle.idToken({ sub: `browser-${js}-${Date.now()}`, email: googleEmail })
      // Google's consent screen answers at once: back to our callback with a code and the same state.
      await context.route('https://accounts.google.com/**', (route) => {
        const asked = new URL(route.request().url())
        const back = new URL('/auth/google/callback', app.url)
        back.searchParams.set('code', 'good-code')
        back.searchParams.set('state', asked.searchParams.get('state') ?? '')
        return route.fulfill({ status: 302, headers: { Location: back.toString() } })
      })
      await goto(page, js, '/edit-profile')
      await page.getByRole('button', { name: /Link Google/ }).click()
      await page.waitForURL(`${app.url}/account`)
      await expectToast(page, 'Google account linked')
      const row = await app.api.db.selectFrom('users').select('google_email').where('id', '=', user.id).executeTakeFirstOrThrow()
      expect(row.google_email).toBe(googleEmail)
      await goto(page, js, '/edit-profile')
      await expect.poll(() => page.getByText(googleEmail).isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: /Link Google/ }).count()).toBe(0)
      await context.close()
    })
  })
}

describe('screenshots (390×844 and 320 wide, light and dark) for a person to look at', () => {
  it('Edit Profile: as it opens, with a new photo chosen, and refused; nothing wider than the phone', { timeout: 300_000 }, async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/profile'
    mkdirSync(dir, { recursive: true })
    const { token } = await seedUser(app.api, { email: newEmail('shots'), password: TEST_PASSWORD, userName: 'Ada Obi' })
    const other = await seedUser(app.api, { email: newEmail('linked'), userName: 'Bola Linked', googleSub: `shots-${Date.now()}` })
    await app.api.db
      .updateTable('users')
      .set({ google_email: 'bola.a.very.long.address.for.a.phone@gmail.com' })
      .where('id', '=', other.user.id)
      .execute()
    const linked = other.token
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 390, height: 844 },
        { width: 320, height: 568 },
      ]) {
        const { context, page } = await phone(browser, true, { ...size, colorScheme })
        await signIn(context, app.url, token)
        await goto(page, true, '/edit-profile')
        const shot = async (name: string) => {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(wide, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
          await page.screenshot({ path: `${dir}/${name}-${size.width}-${colorScheme}.png`, fullPage: true })
        }
        await shot('edit-profile')
        await photoInput(page).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await noisyPng(300) })
        await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toBe('New photo ready. Save to use it.')
        await shot('edit-profile-chosen')
        await page.getByLabel('Nickname').fill('x'.repeat(20))
        await page.getByLabel('Nickname').press('Tab')
        await shot('edit-profile-filled')
        expect(await axeViolations(page), `axe ${colorScheme} ${size.width}`).toEqual([])
        await signIn(context, app.url, linked)
        await goto(page, true, '/edit-profile')
        await shot('edit-profile-linked')
        expect(await axeViolations(page), `axe linked ${colorScheme} ${size.width}`).toEqual([])
        await context.close()
      }
    }
  })
})
