import crypto from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type Express } from 'express'
import helmet from 'helmet'
import { CLIENT_IP_HEADER } from './app/utils/auth.server'
import { normalizeAddress } from './app/utils/client-address.server'
import { getWebEnv, lockWebEnv } from './app/utils/env.server'
import { logger } from './app/utils/logger.server'
import { accessMessages } from './app/utils/messages'
import { remixHandler } from './app/utils/remix-handler.server'
import { isCrossSiteMutation } from './app/utils/request-guard.server'
import { openRequestMemo, REQUEST_ID_HEADER } from './app/utils/request-memo.server'

installGlobals({ nativeFetch: true })

/**
 * The web process: Express 4 in front of the Remix build (the official stacks' wiring),
 * plus security headers, the cross-site guard, the body limits and the client address for the api.
 */
/**
 * A fresh 128-bit CSP nonce per response, cut from a block of random bytes refilled 256 nonces at a
 * time (as crypto.randomUUID does): randomBytes(16) asked the system for 16 bytes per page.
 */
const NONCE_BYTES = 16
const noncePool = Buffer.alloc(NONCE_BYTES * 256)
let nonceAt = noncePool.length
export function cspNonce(): string {
  if (nonceAt >= noncePool.length) {
    crypto.randomFillSync(noncePool)
    nonceAt = 0
  }
  const nonce = noncePool.toString('base64', nonceAt, nonceAt + NONCE_BYTES)
  nonceAt += NONCE_BYTES
  return nonce
}

export function createWebApp(build: ServerBuild, options: { publicDir?: string } = {}): Express {
  const env = getWebEnv()
  const publicDir = options.publicDir ?? path.resolve('public')
  const app = express()
  app.disable('x-powered-by')
  const { trustProxy } = env
  if (trustProxy.unsafe) logger.warn(`${trustProxy.unsafe}: refused in production; name the proxies instead`)
  app.set('trust proxy', trustProxy.value)

  app.use((req, res, next) => {
    res.locals.cspNonce = cspNonce()
    next()
  })
  const chatOrigin = env.CHAT_WIDGET_URL ? new URL(env.CHAT_WIDGET_URL).origin : null
  app.use(
    helmet({
      // Same-origin by default; the Remix inline context script carries the nonce.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': [
            "'self'",
            (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
            ...(chatOrigin ? [chatOrigin] : []),
          ],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'connect-src': ["'self'", ...(chatOrigin ? [chatOrigin] : [])],
          'font-src': ["'self'"],
          'frame-src': chatOrigin ? [chatOrigin] : ["'none'"],
          'frame-ancestors': ["'none'"],
          'form-action': ["'self'", 'https://accounts.google.com'],
          'base-uri': ["'self'"],
          'object-src': ["'none'"],
          ...(env.cookieSecure ? { 'upgrade-insecure-requests': [] } : {}),
        },
      },
      strictTransportSecurity: env.cookieSecure ? { maxAge: 63072000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
    }),
  )

  // Remix fingerprints /build assets: cache them for a year. Other public files an hour.
  // `compression` for them only: pages are gzipped by the Remix handler (remix-handler.server.ts).
  // Only paths that name a public file reach the disk: a page costs no stat() of public/.
  app.use('/build', compression(), express.static(path.join(publicDir, 'build'), { immutable: true, maxAge: '1y' }))
  const publicNames = new Set(existsSync(publicDir) ? readdirSync(publicDir).filter((name) => name !== 'build') : [])
  const servePublic = express.Router().use(compression(), express.static(publicDir, { maxAge: '1h' }))
  app.use((req, res, next) => (publicNames.has(req.path.split('/')[1] ?? '') ? servePublic(req, res, next) : next()))

  // Request log: method, path (no query string), status, time. Never headers or bodies; no line
  // per static file (they were served above).
  app.use((req, res, next) => {
    const start = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, 'request')
    })
    next()
  })

  app.get('/healthcheck', (_req, res) => {
    res.type('text/plain').send('OK')
  })

  app.use((req, res, next) => {
    // Overwrite whatever the client claimed: only Express (with TRUST_PROXY) decides who is calling.
    req.headers[CLIENT_IP_HEADER] = normalizeAddress(req.ip)
    // Likewise the request id that lets a page's loaders share one api GET (request-memo.server.ts).
    const memo = openRequestMemo()
    req.headers[REQUEST_ID_HEADER] = memo.id
    res.on('close', memo.close)
    if (
      isCrossSiteMutation({
        method: req.method,
        host: req.get('host'),
        origin: req.get('origin'),
        secFetchSite: req.get('sec-fetch-site'),
        allowedHosts: env.PUBLIC_URL ? [new URL(env.PUBLIC_URL).host] : [],
      })
    ) {
      logger.warn({ method: req.method, path: req.path }, 'cross-site request refused')
      res.status(403).type('text/plain').send(accessMessages.crossSite)
      return
    }
    next()
  })

  app.all(
    '*',
    remixHandler({
      build,
      getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
      // A body over its route's limit (forms: 256 kB) is refused before Remix reads it; the
      // connection closes so the rest of it is never read.
      refuse(res, status) {
        res.status(status).set('Connection', 'close').type('text/plain')
        res.send(status === 413 ? accessMessages.tooLarge : accessMessages.badRequest)
      },
    }),
  )
  return app
}

export async function loadBuild(buildPath = path.resolve('build/remix/index.js')): Promise<ServerBuild> {
  return (await import(pathToFileURL(buildPath).href)) as ServerBuild
}

async function main() {
  const build = await loadBuild()
  const app = createWebApp(build)
  lockWebEnv() // read and checked by createWebApp; it does not change under a running process
  const port = Number(process.env.PORT ?? 3000)
  const host = process.env.HOST ?? '0.0.0.0'
  const server = app.listen(port, host, () => {
    logger.info({ port, host }, 'web listening')
  })
  const stop = () => server.close(() => process.exit(0))
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    logger.fatal({ err: error }, 'web failed to start')
    process.exit(1)
  })
}
