import { z } from 'zod'
import { parseTrustProxy, type TrustProxy } from './client-address'

/**
 * What the web process itself reads from the environment: who the proxies are, the public origin
 * the cross-site guard accepts, the chat widget the CSP admits, and whether the site is https only.
 * Read once, when the app is made (createWebApp); the Remix build reads its own settings
 * (app/utils/env.server.ts).
 */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  TRUST_PROXY: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  CHAT_WIDGET_URL: z.string().url().optional(),
  COOKIE_SECURE: z.enum(['true', 'false']).optional(),
  API_BASE_URL: z.string().url().default('http://127.0.0.1:3001'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  OPS_HOST: z
    .string()
    .regex(/^[a-z0-9.-]+(?::\d{1,5})?$/i, 'a host name, with its port if not the default (ops.example.com)')
    .optional(),
})

export type ServerEnv = {
  trustProxy: TrustProxy
  /** The public origin's host (PUBLIC_URL), also accepted as the Origin of a form post. */
  publicHost: string | null
  chatOrigin: string | null
  /** https only: HSTS and upgrade-insecure-requests (the app's cookies are Secure alike). */
  secure: boolean
  /** The api this web calls (its /readyz is part of ours). */
  apiBaseUrl: string
  /** Where Prometheus scrapes the web's /metrics (port null: not served; decision 022). */
  metrics: { port: number | null; host: string }
  /** The console's own host name (OPS_HOST, decision 052): /ops answers only there. Null: on every host. */
  opsHost: string | null
}

export function readServerEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = schema.parse(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v])))
  const trustProxy = parseTrustProxy(parsed.TRUST_PROXY)
  if (trustProxy.unsafe && parsed.NODE_ENV === 'production') {
    throw new Error(`${trustProxy.unsafe}. Name the proxies instead, e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback`)
  }
  return {
    trustProxy,
    publicHost: parsed.PUBLIC_URL ? new URL(parsed.PUBLIC_URL).host : null,
    chatOrigin: parsed.CHAT_WIDGET_URL ? new URL(parsed.CHAT_WIDGET_URL).origin : null,
    secure: parsed.COOKIE_SECURE ? parsed.COOKIE_SECURE === 'true' : parsed.NODE_ENV === 'production',
    apiBaseUrl: parsed.API_BASE_URL.replace(/\/+$/, ''),
    metrics: { port: parsed.METRICS_PORT ?? null, host: parsed.METRICS_HOST },
    opsHost: parsed.OPS_HOST?.toLowerCase() ?? null,
  }
}
