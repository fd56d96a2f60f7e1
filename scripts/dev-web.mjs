// The app server `remix dev` runs for `npm run dev` (scripts/dev.mjs): the real web entry,
// build/server.js, restarted by `node --watch` when esbuild rewrites it (server.ts or server/ changed), and,
// once it answers, the "ready" line remix dev waits for before it tells the browser to reload.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { logDevReady } from '@remix-run/node'

const web = spawn(
  process.execPath,
  ['--watch-path=build/server.js', '--watch-preserve-output', '--enable-source-maps', 'build/server.js'],
  { stdio: 'inherit' },
)
web.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => web.kill(signal))

// remix dev starts this once the build is written: read its version while the web starts.
const build = import(pathToFileURL(path.resolve('build/server/index.js')).href)
build.catch(() => {}) // a broken build also stops the web, which node --watch reports
const url = `http://127.0.0.1:${process.env.PORT ?? 3000}/healthcheck`
for (;;) {
  try {
    if ((await fetch(url)).ok) break
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
}
logDevReady(await build)
