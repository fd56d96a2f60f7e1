import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import * as root from '~/root'
import * as index from '~/routes/_index'
import * as account from '~/routes/account'
import * as login from '~/routes/login'
import * as logout from '~/routes/logout'
import * as privacy from '~/routes/user.privacy'
import * as paystackWebhook from '~/routes/webhooks.paystack'
import { precompress } from '../../scripts/lib/precompress.mjs'
import { createWebApp } from '../../server/app'
import type { Lifecycle } from '../../server/health'
import type { WebMetrics } from '../../server/metrics'
import { serverBuildOf } from '../support/server-build'

/**
 * The real web process (server/'s Express: compression, helmet, body limits, the Remix
 * handler) around a Remix build made of the real route modules, without `npm run build`:
 * for the tests of what server.ts adds. Client assets are stand-ins; a build/client/assets
 * folder with fingerprinted files checks the static cache.
 */
const ROUTES: [string, string | undefined, string | undefined, boolean, object][] = [
  ['root', undefined, '', false, root],
  ['routes/_index', 'root', undefined, true, index],
  ['routes/account', 'root', 'account', false, account],
  ['routes/login', 'root', 'login', false, login],
  ['routes/logout', 'root', 'logout', false, logout],
  ['routes/user.privacy', 'root', 'user/privacy', false, privacy],
  ['routes/webhooks.paystack', 'root', 'webhooks/paystack', false, paystackWebhook],
  // Test only: a resource route whose body pauses, as a page with deferred data does.
  ['routes/test.slow-stream', 'root', 'test/slow-stream', false, { loader: slowStream }],
  // Test only: an answer with two cookies, a type without charset and a header helmet set too.
  ['routes/test.headers', 'root', 'test/headers', false, { loader: manyHeaders }],
  // Test only: a page whose loader has a bug (its message must stay on the server).
  ['routes/test.fault', 'root', 'test/fault', false, { loader: faulty, default: () => null }],
  // Test only: the URL and the load context a loader is given.
  ['routes/test.context', 'root', 'test/context', false, { loader: seenByLoader, action: seenByLoader }],
] as const

/**
 * `first part`, then `second part` only once the client said it has the first (releaseSecondPart):
 * a server that held the first part back would wait here until the 5 s safety release, and write
 * `second part (timed out)`.
 */
let release: (() => void) | undefined
export function releaseSecondPart() {
  release?.()
}
async function slowStream() {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`first part ${'.'.repeat(2000)}\n`))
      const released = await new Promise<boolean>((resolve) => {
        release = () => resolve(true)
        setTimeout(() => resolve(false), 5000)
      })
      controller.enqueue(encoder.encode(released ? 'second part\n' : 'second part (timed out)\n'))
      controller.close()
    },
  })
  return new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
}

/** The message of a bug: what a page must never show (TEST_FAULT_MESSAGE). */
export const TEST_FAULT_MESSAGE = 'database password hunter2 at /srv/cardlane/secret.ts'
function faulty(): never {
  throw new Error(TEST_FAULT_MESSAGE)
}

function seenByLoader({ request, context }: { request: Request; context: AppLoadContext }) {
  const { cspNonce, clientAddress, requestId, memo, bodyLimit } = context
  return Response.json({
    url: request.url,
    context: { cspNonce, clientAddress, requestId, bodyLimit, memo: memo instanceof Map && memo.size === 0 },
    headers: [...request.headers.keys()],
  })
}

function manyHeaders() {
  const headers = new Headers({ 'Content-Type': 'application/json', 'X-Frame-Options': 'SAMEORIGIN', 'X-Test': 'kept' })
  headers.append('Set-Cookie', 'first=1; Path=/; HttpOnly')
  headers.append('Set-Cookie', 'second=2; Path=/; HttpOnly')
  return new Response('{"ok":true}', { headers })
}

export function testBuild(): ServerBuild {
  return serverBuildOf(ROUTES.map(([id, parentId, path, index, module]) => ({ id, parentId, path, index, module })))
}

export type RunningWeb = { url: string; port: number; publicDir: string; assetsDir: string; opsAssetsDir?: string; close(): Promise<void> }

/** A build's client folder with a fingerprinted script and stylesheet, and their compressed copies. */
function clientFolder(tag: string) {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), `cardlane-${tag}-`))
  const assetsDir = path.join(clientDir, 'assets')
  mkdirSync(assetsDir)
  writeFileSync(path.join(assetsDir, 'entry.client-TEST.js'), `// ${tag} ${'fingerprinted asset '.repeat(200)}\n`)
  mkdirSync(path.join(assetsDir, 'nested'))
  writeFileSync(path.join(assetsDir, 'nested', 'tailwind-TEST.css'), `${'.fingerprinted { color: red }\n'.repeat(100)}`)
  // As `npm run build` does: the brotli and gzip copies beside each asset.
  precompress(assetsDir)
  return { clientDir, assetsDir }
}

/**
 * Starts the web on a free port of 127.0.0.1 (API_BASE_URL, TRUST_PROXY and OPS_HOST as set in
 * process.env); with `ops`, the console's build beside the customer's (decision 052).
 */
export async function startWeb(options: { lifecycle?: Lifecycle; metrics?: WebMetrics; ops?: ServerBuild } = {}): Promise<RunningWeb> {
  const publicDir = mkdtempSync(path.join(os.tmpdir(), 'cardlane-public-'))
  const { clientDir, assetsDir } = clientFolder('client')
  const opsClient = options.ops ? clientFolder('ops-client') : undefined
  const app = createWebApp(testBuild(), {
    publicDir,
    clientDir,
    ops: options.ops,
    opsClientDir: opsClient?.clientDir,
    lifecycle: options.lifecycle,
    metrics: options.metrics,
  })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    publicDir,
    assetsDir,
    opsAssetsDir: opsClient?.assetsDir,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
