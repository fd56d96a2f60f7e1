// Bundles the two Node entry points after the two `remix vite:build`s (the customer's, the
// console's): web (server.ts) and api (api/main.ts).
// Our TypeScript is bundled; packages stay in node_modules (installed by npm ci). Then the brotli
// and gzip copies of both builds' browser assets (decision 024).
import { writeFileSync } from 'node:fs'
import { build } from 'esbuild'
import { esbuildTarget } from './lib/node-version.mjs'
import { precompress } from './lib/precompress.mjs'

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: esbuildTarget,
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  tsconfig: 'tsconfig.json',
}

await build({ ...common, entryPoints: { server: 'server.ts', api: 'api/main.ts' }, outdir: 'build' })
writeFileSync('build/.stamp', new Date().toISOString())
console.log('built build/server.js and build/api.js')
for (const dir of ['build/client/assets', 'build/ops/client/assets'])
  console.log(`compressed ${precompress(dir)} assets in ${dir} (.br, .gz)`)
