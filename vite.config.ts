import { fileURLToPath } from 'node:url'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { REMIX_FUTURE } from './app/remix-future'
import { browserChunksPlugin } from './vite.shared'

// The app's build (decision 044). Vitest has its own config (vitest.config.ts) and never loads this.
export default defineConfig({
  resolve: {
    alias: {
      '~': fileURLToPath(new URL('./app', import.meta.url)),
      '#contract': fileURLToPath(new URL('./contract', import.meta.url)),
    },
  },
  // public/ is served by the web process itself (server/app.ts), not copied into the build.
  publicDir: false,
  build: {
    // Every asset a file of its own, as the sprite must be (decision 015): no data: URLs.
    assetsInlineLimit: 0,
  },
  plugins: [
    // The browser's chunks cut for a first visit's few requests (vite.shared.ts, decision 054).
    browserChunksPlugin,
    remix({
      // build/client/assets (browser, fingerprinted) and build/server/index.js (imported by server/app.ts).
      buildDirectory: 'build',
      serverModuleFormat: 'esm',
      future: REMIX_FUTURE,
    }),
  ],
})
