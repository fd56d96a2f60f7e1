import { describe, expect, it } from 'vitest'
import { phone, useBrowserApp } from '../support/app'

/**
 * A form's validation loads on its first use, not with the page (decision 059): the Login screen
 * shows the catalogue's field messages as a field is left (JavaScript on) or as the server answers
 * (off), and downloads zod only once a field has been touched.
 */
const { app, browser } = useBrowserApp()

describe('Login: field messages without zod in the first visit', () => {
  it('with JavaScript: no zod until a field is used; then the message as the field is left, and on submit', async () => {
    const { context, page } = await phone(browser, true)
    const scripts: string[] = []
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url())
    })
    await page.goto(`${app.url}/login`, { waitUntil: 'networkidle' })
    const bodies = async () => Promise.all(scripts.map((url) => page.evaluate((u) => fetch(u).then((r) => r.text()), url)))
    expect((await bodies()).filter((text) => text.includes('ZodError'))).toEqual([])

    await page.getByLabel('E-mail').fill('not-an-address')
    await page.getByLabel('E-mail').press('Tab')
    await expect.poll(() => page.getByText('Enter a valid e-mail address').isVisible()).toBe(true)
    expect((await bodies()).some((text) => text.includes('ZodError'))).toBe(true)
    // Still no request to the server: the message came from the schema in the browser.
    await page.getByLabel('E-mail').fill('')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByText('E-mail is required').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true)
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('without JavaScript: the server answers with the same messages, and the fields keep their native constraints', async () => {
    const { context, page } = await phone(browser, false)
    await page.goto(`${app.url}/login`)
    expect(await page.getByLabel('E-mail').getAttribute('required')).not.toBeNull()
    await page.getByLabel('E-mail').fill('not-an-address')
    await page.getByLabel('Password').fill('x')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByText('Enter a valid e-mail address').isVisible()).toBe(true)
    await context.close()
  })
})
