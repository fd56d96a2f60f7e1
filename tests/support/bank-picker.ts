import type { Page } from 'playwright-core'

/**
 * Chooses a bank on Add Bank Card, as a person does: without JavaScript in the native select,
 * with it by typing into the search-as-you-type picker and tapping the bank (decision 039).
 */
export async function chooseBank(page: Page, bank: { code: string; name: string; typed: string }) {
  const field = page.getByLabel('Bank', { exact: true })
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') {
    await field.selectOption(bank.code)
    return
  }
  await field.fill(bank.typed)
  await page.getByRole('option', { name: bank.name, exact: true }).click()
}

export const GTBANK = { code: '058', name: 'Guaranty Trust Bank', typed: 'guaranty' }
