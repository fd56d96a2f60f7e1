import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { StaffRole } from '#contract/endpoint'
import { commitStaffSession, emptyStaffSession } from '~/ops/session.server'
import { readFirst, type RunningApp } from './app'
import { codeAt, seedStaff, STAFF_PASSWORD, type SeededStaff } from './staff'

/** A desktop for the operator console: 1280×800, JavaScript on or off. */
export async function desktop(browser: Browser, javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled })
  return { context, page: await context.newPage() }
}

/**
 * Signs a staff member in through the console's own two steps (e-mail and password, then the
 * authenticator code at the api's clock), as a person would.
 */
export async function staffSignInUi(page: Page, app: RunningApp, staff: Pick<SeededStaff, 'email' | 'seed'>, to = '/ops') {
  await page.goto(`${app.url}/ops/login?${new URLSearchParams({ redirectTo: to })}`)
  await page.getByLabel('Work e-mail').fill(staff.email)
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByLabel('Authenticator code').fill(codeAt(app.api, staff.seed))
  await readFirst(page)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname.startsWith('/ops') && !url.pathname.startsWith('/ops/login'))
}

/** A desktop already signed in to the console as a new staff member of `role` (not the subject of the test). */
export async function staffDesktop(browser: Browser, app: RunningApp, role: StaffRole, js = true) {
  const staff = await seedStaff(app.api, { role })
  const { context, page } = await desktop(browser, js)
  const session = await emptyStaffSession()
  session.set('token', staff.token)
  session.set('email', staff.email)
  session.set('role', staff.role)
  const [pair] = (await commitStaffSession(session)).split(';')
  const eq = pair.indexOf('=')
  await context.addCookies([{ name: pair.slice(0, eq), value: pair.slice(eq + 1), url: app.url, httpOnly: true, sameSite: 'Strict' }])
  return { context, page, staff }
}
