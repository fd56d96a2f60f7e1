import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { brandMarkHref } from '~/components/brand-marks'
import { brandMarksSprite, spriteFile } from '../../scripts/brand-marks.mjs'

describe('the brand-mark sprite (decision 015)', () => {
  it('is what simple-icons draws today for the brands of brand-marks.json (run `node scripts/brand-marks.mjs` when it is not)', () => {
    expect(readFileSync(spriteFile, 'utf8')).toBe(brandMarksSprite())
  })

  it("names each brand's symbol by its brandId, Razer Gold's included, and nothing for a brand simple-icons lacks", () => {
    const sprite = readFileSync(spriteFile, 'utf8')
    for (const brandId of ['apple', 'steam', 'google-play', 'razer-gold', 'ebay', 'playstation', 'target']) {
      const href = brandMarkHref(brandId)
      expect(href, brandId).toMatch(new RegExp(`#${brandId}$`))
      expect(sprite).toContain(`<symbol id="${brandId}" viewBox="0 0 24 24"><path d="M`)
    }
    for (const brandId of ['amazon', 'xbox', 'toString', '__proto__', undefined])
      expect(brandMarkHref(brandId), String(brandId)).toBeUndefined()
  })
})
