// Runs a measuring script that uses the test kit (tests/support/*) outside vitest: TypeScript and
// the `~` and `#contract` paths through vite-node, `vitest` itself as a stub.
//   node scripts/run-with-kit.mjs scripts/bench-review-queue.mjs [args…]
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'
import { ViteNodeRunner } from 'vite-node/client'
import { ViteNodeServer } from 'vite-node/server'

const root = path.resolve(fileURLToPath(import.meta.url), '..', '..')
const server = await createServer({
  root,
  configFile: false,
  logLevel: 'error',
  server: { hmr: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
  esbuild: { jsx: 'automatic' },
  resolve: {
    alias: {
      '~': path.join(root, 'app'),
      '#contract': path.join(root, 'contract'),
      vitest: path.join(root, 'scripts/lib/vitest-stub.mjs'),
    },
  },
})
// The production build is Node's own: one copy of react and Remix.
const node = new ViteNodeServer(server, { deps: { external: [/\/build\//] } })
const runner = new ViteNodeRunner({
  root,
  fetchModule: (id) => node.fetchModule(id),
  resolveId: (id, importer) => node.resolveId(id, importer),
})
process.argv.splice(1, 1) // the script sees its own arguments
try {
  await runner.executeFile(path.resolve(process.argv[1]))
} finally {
  await server.close()
}
