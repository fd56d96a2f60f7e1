import crypto from 'node:crypto'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import { installGlobals, type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type Express } from 'express'
import helmet from 'helmet'
import { CLIENT_IP_HEADER } from './app/utils/auth.server'
import { getWebEnv } from './app/utils/env.server'
import { logger } from './app/utils/logger.server'
import { accessMessages } from './app/utils/messages'
import { isCrossSiteMutation } from './app/utils/request-guard.server'

installGlobals({ nativeFetch: true })

const MAX_BODY_BYTES = 256 * 1024

/**
 * The web process: Express 4 in front of the Remix build (the official stacks' wiring),
 * plus security headers, the cross-site guard and the client address for the api.
 */
export function createWebApp(build: ServerBuild, options: { publicDir?: string; trustProxy?: string } = {}): Express {
  const env = getWebEnv()
  const publicDir = options.publicDir ?? path.resolve('public')
  const app = express()
  app.disable('x-powered-by')
  const trustProxy = options.trustProxy ?? process.env.TRUST_PROXY
  if (trustProxy) app.set('trust proxy', parseTrustProxy(trustProxy))

  app.use(compression())

  app.use((req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
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
          'script-src': ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, ...(chatOrigin ? [chatOrigin] : [])],
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

  // Request log: method, path (no query string), status, time. Never headers or bodies.
  app.use((req, res, next) => {
    const start = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, 'request')
    })
    next()
  })

  // Remix fingerprints /build assets: cache them for a year. Other public files an hour.
  app.use('/build', express.static(path.join(publicDir, 'build'), { immutable: true, maxAge: '1y' }))
  app.use(express.static(publicDir, { maxAge: '1h' }))

  app.get('/healthcheck', (_req, res) => {
    res.type('text/plain').send('OK')
  })

  // Forms here are small; anything bigger is refused before Remix reads it into memory.
  app.use((req, res, next) => {
    if (Number(req.get('content-length') ?? 0) > MAX_BODY_BYTES) {
      res.status(413).type('text/plain').send(accessMessages.tooLarge)
      return
    }
    next()
  })

  app.use((req, res, next) => {
    // Overwrite whatever the client claimed: only Express (with TRUST_PROXY) decides who is calling.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? ''
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
    createRequestHandler({
      build,
      mode: build.mode,
      getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    }),
  )
  return app
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true
  if (value === 'false') return false
  if (/^\d+$/.test(value)) return Number(value)
  return value
}

export async function loadBuild(buildPath = path.resolve('build/remix/index.js')): Promise<ServerBuild> {
  return (await import(pathToFileURL(buildPath).href)) as ServerBuild
}

async function main() {
  const build = await loadBuild()
  const app = createWebApp(build)
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
