import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { REMIX_FUTURE } from './app/remix-future'
import customer from './vite.config'
import { browserChunksPlugin } from './vite.shared'

// The console's build (decision 052): the customer's settings (vite.config.ts), its own app folder,
// route tree and bundles, its assets under /ops/assets so the two builds never share a file name.
export default defineConfig({
  ...customer,
  base: '/ops/',
  plugins: [
    browserChunksPlugin,
    remix({
      appDirectory: 'app/ops',
      // build/ops/client/assets (served at /ops/assets) and build/ops/server/index.js.
      buildDirectory: 'build/ops',
      serverModuleFormat: 'esm',
      future: REMIX_FUTURE,
    }),
  ],
})
