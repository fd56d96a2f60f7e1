import crypto from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import helmet from 'helmet'
import type { ServerEnv } from './env'

/**
 * A fresh 128-bit CSP nonce per response, cut from a block of random bytes refilled 256 nonces at a
 * time (as crypto.randomUUID does), rather than a call to the system per page.
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

/** Security headers; the CSP admits our own scripts and those carrying this response's nonce. */
export function securityHeaders(env: ServerEnv): RequestHandler[] {
  const { chatOrigin } = env
  const withNonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = cspNonce()
    next()
  }
  return [
    withNonce,
    helmet({
      // Same-origin by default; Remix's inline scripts carry the nonce.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': [
            "'self'",
            (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`,
            ...(chatOrigin ? [chatOrigin] : []),
          ],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'connect-src': ["'self'", ...(chatOrigin ? [chatOrigin] : [])],
          'font-src': ["'self'"],
          // The service worker (public/sw.js), from this site only.
          'worker-src': ["'self'"],
          'manifest-src': ["'self'"],
          'frame-src': chatOrigin ? [chatOrigin] : ["'none'"],
          'frame-ancestors': ["'none'"],
          'form-action': ["'self'", 'https://accounts.google.com'],
          'base-uri': ["'self'"],
          'object-src': ["'none'"],
          ...(env.secure ? { 'upgrade-insecure-requests': [] } : {}),
        },
      },
      strictTransportSecurity: env.secure ? { maxAge: 63072000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
    }),
  ]
}
