// `npm run dev`: the developer loop on the embedded SQLite under data/.
// - the web (build/server.js with NODE_ENV=development) runs Vite's dev servers in middleware mode,
//   the customer's and the console's (server/vite-dev.ts): app/ and contract/ changes reach the next
//   request, and the browser hot;
// - esbuild watches server.ts (with server/) and api/main.ts and rewrites build/server.js and build/api.js;
// - the api and the web run under `node --watch`, so each restarts when its bundle changes.
// Same ports, settings and console as `npm start`; a dying child stops everything with exit 1.
import { rmSync } from 'node:fs'
import path from 'node:path'
import { context } from 'esbuild'
import { esbuildTarget } from './lib/node-version.mjs'
import { createSupervisor, readSettings, refuseTakenPorts } from './lib/processes.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)

let settings
try {
  settings = readSettings()
} catch (err) {
  console.error(`\n${err.message}\n`)
  process.exit(1)
}
const { webPort, apiPort, apiHost, apiBaseUrl, embeddedApiUrl } = settings

await refuseTakenPorts(
  [
    { port: webPort, host: settings.webHost, what: 'the web', variable: 'PORT' },
    ...(apiBaseUrl ? [] : [{ port: apiPort, host: apiHost, what: "the embedded api's", variable: 'API_PORT' }]),
  ],
  'npm run dev',
)

// What follows is a development build: `npm start` must not take it for a production one.
rmSync('build/.stamp', { force: true })

// The same bundles as scripts/build-server.mjs, rebuilt on change.
const bundle = (entry, out) =>
  context({
    entryPoints: { [out]: entry },
    outdir: 'build',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: esbuildTarget,
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    tsconfig: 'tsconfig.json',
  })
const bundles = await Promise.all([bundle('server.ts', 'server'), bundle('api/main.ts', 'api')])
try {
  await Promise.all(bundles.map((b) => b.rebuild()))
} catch {
  console.error('\nThe first build failed (errors above); fix them and run npm run dev again.')
  process.exit(1)
}
await Promise.all(bundles.map((b) => b.watch()))

const supervisor = createSupervisor({ command: 'npm run dev' })
const node = process.execPath

let apiUrl = apiBaseUrl
if (!apiBaseUrl) {
  const api = supervisor.run(
    'api',
    node,
    // Restart when the bundle changes, keeping what was printed before (node clears the console otherwise).
    ['--watch-path=build/api.js', '--watch-preserve-output', '--enable-source-maps', 'build/api.js'],
    {
      NODE_ENV: 'development',
      DATABASE_URL: process.env.DATABASE_URL ?? 'file:data/cardlane.db',
      API_PORT: String(apiPort),
      API_HOST: apiHost,
      MAIL_TRANSPORT: process.env.MAIL_TRANSPORT ?? (process.env.SMTP_URL ? undefined : 'outbox'),
    },
    { port: apiPort, variable: 'API_PORT' },
  )
  if (await supervisor.waitUntilReady(`${embeddedApiUrl}/healthz`, api)) apiUrl = embeddedApiUrl
}

if (apiUrl && !supervisor.isStopping()) {
  const web = supervisor.run(
    'web',
    node,
    ['--watch-path=build/server.js', '--watch-preserve-output', '--enable-source-maps', 'build/server.js'],
    { NODE_ENV: 'development', API_BASE_URL: apiUrl, PORT: String(webPort) },
    { port: webPort, variable: 'PORT' },
  )
  if (await supervisor.waitUntilReady(`http://127.0.0.1:${webPort}/healthcheck`, web)) {
    console.log(
      [
        '',
        `  Cardlane (development) is running: open http://localhost:${webPort}`,
        `  api: ${apiUrl}${apiBaseUrl ? ' (API_BASE_URL)' : ', restarts when api/ or contract/ changes'}`,
        '  web: app/ and contract/ changes reach the page at once (Vite); restarts when server.ts or server/ changes.',
        '',
      ].join('\n'),
    )
  }
}
