import { describe, expect, it } from 'vitest'
import { staffDeskApi } from '#contract/ops/staff'
import { totpCode } from '../../api/lib/totp'
import { useBrowserApp } from '../support/app'
import { bearer, testStaffToken } from '../support/staff'

/** The set-up page without JavaScript, and a locked sign-in, in Chromium at 1280×800 and a phone (screenshots in test-results/ops-setup/). */
const { app, browser } = useBrowserApp({ config: { authRateLimit: 6 } })
const SIZES = [
  { name: '1280', viewport: { width: 1280, height: 800 } },
  { name: '390', viewport: { width: 390, height: 844 } },
]

describe('JavaScript off', () => {
  it('a refused set-up keeps the same key on screen, says the 12-character rule once, and the code of that key finishes it', async () => {
    const admin = await testStaffToken(app.api)
    const email = `browser.${Date.now()}@staff.test`
    const invited = await app.api.post('/admin/staff/invite', { email, role: 'reviewer' }, { headers: bearer(admin) })
    const { setupToken } = staffDeskApi.invite.data.parse(invited.body.data)
    const context = await browser.newContext({ viewport: SIZES[0].viewport, javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${app.url}/ops/setup/${setupToken}`)
    const key = (await page.locator('.ops-secret').textContent())!.replace(/\s/g, '')
    expect(await page.getByLabel('Choose a password (12 characters or more)').getAttribute('minlength')).toBe('12')
    await page.screenshot({ path: 'test-results/ops-setup/setup-1280.png', fullPage: true })
    await page.getByLabel('Choose a password (12 characters or more)').fill('short')
    await page.getByLabel('The password again').fill('short')
    await page.getByLabel('The 6-digit code your app shows now').fill('123456')
    await page.getByRole('button', { name: 'Finish set-up' }).click()
    await page.waitForLoadState()
    expect(await page.getByText('Password must be at least 12 characters').count()).toBe(1)
    expect((await page.locator('.ops-secret').textContent())!.replace(/\s/g, '')).toBe(key)
    await page.screenshot({ path: 'test-results/ops-setup/setup-refused-1280.png', fullPage: true })
    const password = 'a long staff password 42'
    await page.getByLabel('Choose a password (12 characters or more)').fill(password)
    await page.getByLabel('The password again').fill(password)
    await page.getByLabel('The 6-digit code your app shows now').fill(totpCode(key, app.api.clock.now()))
    await page.getByRole('button', { name: 'Finish set-up' }).click()
    await page.waitForURL(`${app.url}/ops/login`)
    await context.close()
  })

  it('a locked sign-in says how long to wait, on a desktop and a phone', async () => {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size.viewport, javaScriptEnabled: false })
      const page = await context.newPage()
      for (let i = 0; i < 8; i++) {
        await page.goto(`${app.url}/ops/login`)
        await page.getByLabel('Work e-mail').fill(`nobody${i}@staff.test`)
        await page.getByLabel('Password', { exact: true }).fill('not the password')
        await page.getByRole('button', { name: 'Continue' }).click()
        await page.waitForLoadState()
      }
      await expect.poll(() => page.getByText('Too many tries from here; try again in 15 minutes').first().isVisible()).toBe(true)
      await page.screenshot({ path: `test-results/ops-setup/sign-in-locked-${size.name}.png`, fullPage: true })
      await context.close()
      app.api.clock.advance(15 * 60_000)
    }
  })
})
