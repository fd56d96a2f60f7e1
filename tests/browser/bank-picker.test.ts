import { describe, expect, it } from 'vitest'
import { gotoIn, phone, readFirst, signIn, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { PIN, walletUser } from '../support/wallet'

/**
 * The bank picker of Add Bank Card among every bank and wallet (decision 039), in Chromium on a
 * 390×844 phone: with JavaScript the list narrows as the person types (a combobox: arrows, Enter,
 * a tap); without it the search field asks the server for the matches (`?bank=`) and a native
 * select holds them. Either way the account is saved with Paystack's code.
 */
const { app, browser } = useBrowserApp()
const goto = gotoIn(() => app.url)
const SHOTS = process.env.BANK_PICKER_SHOTS

async function seller(js: boolean, colorScheme: 'light' | 'dark' = 'light') {
  const u = await walletUser(app.api, { card: false })
  const { context, page } = await phone(browser, js, { colorScheme })
  await signIn(context, app.url, u.token)
  return { context, page, u }
}

const savedBanks = async (token: string) =>
  (await app.api.get<{ bankCode: string; bankName: string }[]>('/v1/bankCard/list', { token })).body.data

describe('JavaScript on: search as you type', () => {
  it('typing narrows hundreds of banks to a few; arrows and Enter choose; the account is saved with the wallet’s code', async () => {
    const { context, page, u } = await seller(true)
    await goto(page, true, '/wallet/add-bank-card')
    const box = page.getByRole('combobox', { name: 'Bank' })
    await box.click()
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(40)
    await box.pressSequentially('opa')
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['OPay Digital Services Limited (OPay)'])
    expect(await box.getAttribute('aria-expanded')).toBe('true')
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/picker-js-open.png` })
    await box.press('ArrowDown')
    expect(await box.getAttribute('aria-activedescendant')).toBeTruthy()
    await box.press('Enter')
    expect(await box.inputValue()).toBe('OPay Digital Services Limited (OPay)')
    expect(await box.getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator('input[type=hidden][name=bankCode]').inputValue()).toBe('999992')

    // Another word, by tapping: "first mon" finds First City Monument Bank.
    await box.fill('first mon')
    await page.getByRole('option', { name: 'First City Monument Bank' }).click()
    expect(await page.locator('input[type=hidden][name=bankCode]').inputValue()).toBe('214')
    await box.fill('opay')
    await page.getByRole('option', { name: /OPay/ }).click()

    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    await page.getByLabel('Account number').fill('8031234567')
    await page.getByLabel('Account name').fill('Ada Obi')
    await page.getByLabel('Your withdrawal PIN').fill(PIN)
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/picker-js-chosen.png`, fullPage: true })
    await readFirst(page)
    await page.getByRole('button', { name: 'Add bank account' }).click()
    await page.waitForURL(/\/wallet\/bank-cards(#top)?$/)
    expect(await savedBanks(u.token)).toMatchObject([{ bankCode: '999992', bankName: 'OPay Digital Services Limited (OPay)' }])
    await context.close()
  })

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: the open picker has no accessibility violations (axe-core)`, async () => {
      const { context, page } = await seller(true, colorScheme)
      await goto(page, true, '/wallet/add-bank-card')
      await page.getByRole('combobox', { name: 'Bank' }).fill('bank')
      await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(3)
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/picker-js-${colorScheme}.png` })
      expect(await axeViolations(page)).toEqual([])
      await context.close()
    })
  }
})

describe('JavaScript off: the server narrows the list', () => {
  it('a search asks the page for the matches; the one match is chosen; the account is saved with Paystack’s code', async () => {
    const { context, page, u } = await seller(false)
    await goto(page, false, '/wallet/add-bank-card')
    expect(await page.getByLabel('Bank', { exact: true }).locator('option').count()).toBeGreaterThan(40)
    await page.getByLabel('Find your bank').fill('moniepoint')
    await page.getByLabel('Find your bank').press('Enter')
    await page.waitForURL(`${app.url}/wallet/add-bank-card?bank=moniepoint`)
    const select = page.getByLabel('Bank', { exact: true })
    expect(await select.locator('option').allTextContents()).toEqual(['Choose one of 1', 'Moniepoint MFB'])
    expect(await select.inputValue()).toBe('50515')
    expect(await page.getByText('1 bank matches “moniepoint”.').isVisible()).toBe(true)
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/picker-nojs.png`, fullPage: true })

    await page.getByLabel('Account number').fill('8031234567')
    await page.getByLabel('Account name').fill('Ada Obi')
    await page.getByLabel('Your withdrawal PIN').fill(PIN)
    await page.getByRole('button', { name: 'Add bank account' }).click()
    await page.waitForURL(/\/wallet\/bank-cards(#top)?$/)
    expect(await savedBanks(u.token)).toMatchObject([{ bankCode: '50515', bankName: 'Moniepoint MFB' }])
    await context.close()
  })

  it('a search with no match says so and keeps every bank', async () => {
    const { context, page } = await seller(false)
    await goto(page, false, '/wallet/add-bank-card?bank=zzzz')
    expect(await page.getByText('No bank matches “zzzz”: all banks are listed.').isVisible()).toBe(true)
    expect(await page.getByLabel('Bank', { exact: true }).locator('option').count()).toBeGreaterThan(40)
    await context.close()
  })
})
