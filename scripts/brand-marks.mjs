// Writes app/components/brand-marks.svg: one <symbol> per brand of brand-marks.json, drawn from
// simple-icons (decision 015). The build fingerprints the file and serves it as an immutable asset,
// so the paths never enter a JavaScript bundle. Run after editing brand-marks.json or upgrading
// simple-icons; tests/web/brand-marks.test.ts fails while the file is stale.
//   node scripts/brand-marks.mjs
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as icons from 'simple-icons'

const json = new URL('../app/components/brand-marks.json', import.meta.url)
export const spriteFile = fileURLToPath(new URL('../app/components/brand-marks.svg', import.meta.url))

/** The sprite's text: a symbol per brandId, its id the brandId, on simple-icons' 24×24 grid. */
export function brandMarksSprite() {
  const marks = JSON.parse(readFileSync(json, 'utf8'))
  const symbols = Object.entries(marks).map(([brandId, name]) => {
    const icon = icons[name]
    if (!icon) throw new Error(`simple-icons has no ${name} (brand ${brandId}): delete its line in brand-marks.json`)
    return `<symbol id="${brandId}" viewBox="0 0 24 24"><path d="${icon.path}"/></symbol>`
  })
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(spriteFile, brandMarksSprite())
  console.log(`wrote ${spriteFile}`)
}
