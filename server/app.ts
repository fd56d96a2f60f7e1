import { existsSync, readdirSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type Express, type RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import { remixHandler, requestHost } from './adapter'
import { DRAIN_MS, drainServer } from './drain'
import { readServerEnv } from './env'
import { securityHeaders } from './headers'
import { healthRoutes, type Lifecycle } from './health'
import { loadContextOf } from './load-context'
import { loggedPath } from './log-path'
import { logger, requestLog } from './logging'
import { serverMessages } from './messages'
import { createWebMetrics, type WebMetrics } from './metrics'
import { serveMetrics } from './metrics-server'
import { pagePath, webAppOf } from './page-path'
import { isCrossSiteMutation, isOneClickUnsubscribe } from './request-guard'
import { requestIdMiddleware } from './request-id'
import { DOCUMENT_BROTLI } from './whole-body-compression'

installGlobals({ nativeFetch: true })

/**
 * The web process: Express 4 in front of the Remix build (the official stack's wiring), plus the
 * security headers, the cross-site guard, the body limits and the load context of every request.
 */
/** What a script or stylesheet needs of the security headers: no sniffing, no other site's use. */
function assetHeaders(res: ServerResponse) {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
}

/** A build, or (`npm run dev`) a function that loads it for each request. */
type BuildSource = ServerBuild | (() => Promise<ServerBuild>)

/** What the web serves: the customer's build and the console's (decision 052), each with its browser assets. */
export type WebAppOptions = {
  publicDir?: string
  clientDir?: string
  /** The console's build; without it (tests of the customer's side), /ops is the customer's 404. */
  ops?: BuildSource
  opsClientDir?: string
  lifecycle?: Lifecycle
  metrics?: WebMetrics
  devMiddleware?: RequestHandler
}

export function createWebApp(build: BuildSource, options: WebAppOptions = {}): Express {
  const env = readServerEnv()
  const publicDir = options.publicDir ?? path.resolve('public')
  const clientDir = options.clientDir ?? path.resolve('build/client')
  const opsClientDir = options.opsClientDir ?? path.resolve('build/ops/client')
  const app = express()
  app.disable('x-powered-by')
  if (env.trustProxy.unsafe) logger.warn(`${env.trustProxy.unsafe}: refused in production; name the proxies instead`)
  app.set('trust proxy', env.trustProxy.value)
  // `npm run dev`: Vite's modules and hot updates first (server/vite-dev.ts).
  if (options.devMiddleware) app.use(options.devMiddleware)

  // Vite fingerprints /assets files (build/client/assets): cached for a year, sent as the brotli or gzip copy the build
  // wrote beside each (scripts/lib/precompress.mjs) when the browser accepts it. They are served
  // before `compression`, which would otherwise compress them again on every request, and before
  // the documents' security headers: a policy for a page means nothing on a script, and a first
  // visit downloads many of them (each with its own headers). For the same reason they
  // carry no validators or ranges: a file whose name changes with its bytes is never revalidated
  // (immutable) nor resumed, and no request id: no log line is written for them.
  const assets = (dir: string) =>
    expressStaticGzip(path.join(dir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      serveStatic: { immutable: true, maxAge: '1y', etag: false, lastModified: false, acceptRanges: false, setHeaders: assetHeaders },
    })
  // With OPS_HOST set, the console (its pages and its assets) answers on that host only (decision 052).
  const opsElsewhere = (req: express.Request) => env.opsHost !== null && requestHost(req)?.toLowerCase() !== env.opsHost
  app.use('/ops', (req, res, next) => (opsElsewhere(req) ? res.status(404).type('text/plain').send(serverMessages.notFound) : next()))
  // The console's build fingerprints its own files, under /ops/assets (vite.ops.config.ts).
  if (options.ops) app.use('/ops/assets', assets(opsClientDir))
  app.use('/assets', assets(clientDir))
  app.use(requestIdMiddleware)
  app.use(securityHeaders(env))
  app.use(compression({ brotli: { params: DOCUMENT_BROTLI } }))

  // Other public files: an hour.
  // Only paths that name a public file reach the disk: a page costs no stat() of public/.
  const publicNames = new Set(existsSync(publicDir) ? readdirSync(publicDir) : [])
  const servePublic = express.static(publicDir, { maxAge: '1h', setHeaders: publicHeaders })
  app.use((req, res, next) => (publicNames.has(req.path.split('/')[1] ?? '') ? servePublic(req, res, next) : next()))

  app.use(requestLog)
  app.use(healthRoutes(env, options.lifecycle ?? { stopping: false }))

  app.use((req, res, next) => {
    const refused = isCrossSiteMutation({
      method: req.method,
      host: requestHost(req),
      origin: req.get('origin'),
      secFetchSite: req.get('sec-fetch-site'),
      allowedHosts: env.publicHost ? [env.publicHost] : [],
    })
    if (!refused || isOneClickUnsubscribe({ method: req.method, path: pagePath(req.path) })) return next()
    logger.warn({ method: req.method, path: loggedPath(req.path), requestId: res.locals.requestId }, 'cross-site request refused')
    res.status(403).type('text/plain').send(serverMessages.crossSite)
  })

  const perRequest = typeof build === 'function' || typeof options.ops === 'function'
  if (!options.metrics && perRequest) throw new Error('A build loaded per request needs its metrics given')
  const metrics = options.metrics ?? createWebMetrics(build as ServerBuild, options.ops as ServerBuild | undefined)
  app.use(metrics.renders)
  const handlerOf = (source: BuildSource) =>
    remixHandler({
      build: source,
      getLoadContext: loadContextOf(metrics.upstream),
      // A body over its route's limit or slower than its route's time is refused
      // before Remix reads it; the connection closes so the rest of it is never read.
      refuse(res, status) {
        res.status(status).set('Connection', 'close').type('text/plain')
        res.send(status === 413 ? serverMessages.tooLarge : status === 408 ? serverMessages.tooSlow : serverMessages.badRequest)
      },
    })
  const customer = handlerOf(build)
  const ops = options.ops ? handlerOf(options.ops) : undefined
  // Each request is one app's: a customer page never ranks a desk, a desk never a customer page.
  app.all('*', (req, res, next) => {
    if (!ops) return customer(req, res, next)
    const which = webAppOf(req.path, new URLSearchParams(req.originalUrl.split('?')[1] ?? ''))
    if (which === 'customer') return customer(req, res, next)
    if (which === 'ops') return opsElsewhere(req) ? res.status(404).type('text/plain').send(serverMessages.notFound) : ops(req, res, next)
    // Both apps' paths in one manifest request: answered as Remix answers a stale one, so the page
    // discovers each path on its own when it is followed (a document load of the other app).
    res.status(204).set('X-Remix-Reload-Document', 'true').end()
  })
  return app
}

/**
 * The service worker (public/sw.js) is checked for a new version on every visit rather than kept an
 * hour, so a fix to it reaches everyone at once; its scope is the whole site (decision 048).
 */
function publicHeaders(res: ServerResponse, filePath: string) {
  if (path.basename(filePath) !== 'sw.js') return
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('Service-Worker-Allowed', '/')
}

export async function loadBuild(buildPath = path.resolve('build/server/index.js')): Promise<ServerBuild> {
  return (await import(pathToFileURL(buildPath).href)) as ServerBuild
}

/**
 * `npm run start:web` (build/server.js): the build, the app, the port. SIGTERM: /readyz answers
 * 503 (for SHUTDOWN_DELAY_MS), the port closes, requests in flight finish (at most DRAIN_MS), exit 0.
 */
export async function startWebProcess() {
  const server = createServer()
  // `npm run dev` runs this process with NODE_ENV=development: the build comes from Vite's dev server.
  const dev = process.env.NODE_ENV === 'development' ? await (await import('./vite-dev')).viteDevServer(server) : undefined
  const build = dev ? await dev.build() : await loadBuild()
  const opsBuild = dev ? await dev.opsBuild() : await loadBuild(path.resolve('build/ops/server/index.js'))
  // This process's environment is fixed from here: the app reads its settings once (tests that
  // run the build in their own process change the environment between cases and never call this).
  // Each build holds its own copy of the settings module.
  for (const b of [build, opsBuild]) (b.entry.module as { settleWebEnv?: () => void }).settleWebEnv?.()
  const lifecycle: Lifecycle = { stopping: false }
  const metrics = createWebMetrics(build, opsBuild)
  const app = createWebApp(dev ? dev.build : build, {
    ops: dev ? dev.opsBuild : opsBuild,
    lifecycle,
    metrics,
    devMiddleware: dev?.middlewares,
  })
  const port = Number(process.env.PORT ?? 3000)
  const host = process.env.HOST ?? '0.0.0.0'
  server.on('request', app)
  server.listen(port, host, () => {
    logger.info({ port, host }, 'web listening')
  })
  const env = readServerEnv()
  const metricsServer = env.metrics.port === null ? undefined : await serveMetrics(metrics.registry, env.metrics)
  // Longer than the usual proxy idle timeout, so the proxy closes first, never mid-request.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  const stop = async (signal: string) => {
    if (lifecycle.stopping) return
    lifecycle.stopping = true
    logger.info({ signal }, 'web stopping')
    setTimeout(() => process.exit(1), DRAIN_MS + 4_000).unref()
    const delayMs = Math.min(Math.max(Number(process.env.SHUTDOWN_DELAY_MS) || 0, 0), 10_000)
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
    await drainServer(server, DRAIN_MS)
    await metricsServer?.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

export function reportStartFailure(error: unknown) {
  logger.fatal({ err: error }, 'web failed to start')
  process.exit(1)
}
