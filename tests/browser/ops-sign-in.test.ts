import { describe, expect, it } from 'vitest'
import { expectToast, signedInPhone, useBrowserApp } from '../support/app'
import { desktop, staffSignInUi } from '../support/console-browser'
import { seedStaff } from '../support/staff'

/** The console's sign-in in Chromium at 1280×800, JavaScript on and off. */
const { app, browser } = useBrowserApp()

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('a staff member signs in with password and authenticator code, sees their desks, and signs out', async () => {
      const staff = await seedStaff(app.api, { role: 'reviewer' })
      const { context, page } = await desktop(browser, js)
      await staffSignInUi(page, app, staff)
      expect(new URL(page.url()).pathname).toBe('/ops')
      await expectToast(page, 'Signed in')
      await expect.poll(() => page.getByText(staff.email).isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${app.url}/ops/login`)
      await page.goto(`${app.url}/ops`)
      expect(new URL(page.url()).pathname).toBe('/ops/login')
      await context.close()
    })

    it('a customer signed in to the app gets the staff sign-in at /ops, nothing more', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await page.goto(`${app.url}/ops`)
      expect(new URL(page.url()).pathname).toBe('/ops/login')
      await expect.poll(() => page.getByRole('heading', { name: 'Staff sign-in' }).isVisible()).toBe(true)
      await context.close()
    })
  })
}
