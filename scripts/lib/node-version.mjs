// The project's Node line, stated once in .nvmrc (package.json's `engines` names the same line).
// The bundles target it; the Dockerfile and scripts/build-base-image.sh read the same file.
import { readFileSync } from 'node:fs'

const nvmrc = readFileSync(new URL('../../.nvmrc', import.meta.url), 'utf8')
  .trim()
  .replace(/^v/, '')

/** esbuild's `target` for the Node bundles: `node` and the line's major, e.g. `node24`. */
export const esbuildTarget = `node${nvmrc.split('.')[0]}`
