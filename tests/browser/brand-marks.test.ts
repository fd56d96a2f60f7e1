import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { phone, useBrowserApp } from '../support/app'

/** Brand tiles draw simple-icons' marks from one cached sprite file (decision 015), not from JS. */
const { app, browser } = useBrowserApp()

describe('brand marks', () => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ] as const)("Razer Gold's tile shows its mark, %s, under the page's CSP", async (_, javaScript) => {
    const { context, page } = await phone(browser, javaScript, { colorScheme: javaScript ? 'light' : 'dark' })
    const refused: string[] = []
    page.on('console', (m) => m.text().includes('Content Security Policy') && refused.push(m.text()))
    await page.goto(`${app.url}/order/sell`)
    const tile = page.getByRole('link', { name: 'Razer Gold' }).locator('.cl-brandtile')
    expect(await tile.innerText()).toBe('') // no initials
    const use = tile.locator('svg use')
    expect(await use.getAttribute('href')).toMatch(/^\/assets\/brand-marks-[\w-]+\.svg#razer-gold$/)
    // The symbol arrived from the sprite: the <use> has the mark's box, and the tile's pixels are
    // more than its background colour.
    await expect.poll(() => use.evaluate((el: SVGUseElement) => el.getBBox().width)).toBeGreaterThan(10)
    const { data } = await sharp(await tile.screenshot())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const seen = new Set<string>()
    for (let i = 0; i < data.length; i += 3) seen.add(`${data[i] >> 4},${data[i + 1] >> 4},${data[i + 2] >> 4}`)
    const colours = seen.size
    expect(colours).toBeGreaterThan(2)
    expect(refused).toEqual([])
    await context.close()
  })
})
