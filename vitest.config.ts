import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '#contract': fileURLToPath(new URL('./contract', import.meta.url)),
}

// Three suites by level. TEST_DB=postgres runs api and web on PostgreSQL instead of SQLite.
export default defineConfig({
  resolve: { alias },
  esbuild: { jsx: 'automatic' },
  test: {
    projects: [
      {
        resolve: { alias },
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/support/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/setup.ts'],
          // One Chromium at a time on a 2-core machine: files run one after another.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page that answers a form without JavaScript (a PIN checked by argon2, a redirect,
          // a render) can take more than expect.poll's default second while other suites load
          // the machine: what a poll waits for is the answer, not a speed.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
})
