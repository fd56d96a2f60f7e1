import { z } from 'zod'
import { DEFAULT_BRAND_NAME, DEFAULT_SUPPORT_EMAIL } from '#contract/brand'

/**
 * The web layer's settings, validated once. Read through getWebEnv() so tests can set
 * process.env before the first call. Public values reach the browser only via getPublicEnv().
 */
const DEV_SECRET = 'dev-only-secret-change-me-0123456789abcdef'

/** Only web addresses: a `javascript:` or `data:` URL is never a link or a script source. */
function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  BRAND_NAME: z.string().trim().min(1).default(DEFAULT_BRAND_NAME),
  API_BASE_URL: z.string().url().default('http://127.0.0.1:3001'),
  /** Comma list, newest first: old secrets still verify cookies during a rotation. */
  SESSION_SECRET: z.string().optional(),
  /** The spec's timeout; overridable only so tests of the timeout do not wait it out. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Public origin used for the Google callback, e.g. https://cardlane.example. */
  PUBLIC_URL: z.string().url().optional(),
  /** A chat provider's script, loaded when the chat button is tapped; its origin joins the CSP. */
  CHAT_WIDGET_URL: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  SUPPORT_EMAIL: z.string().email().default(DEFAULT_SUPPORT_EMAIL),
  /** Secure cookies (and the __Host- prefix); on by default in production, off for plain-http localhost. */
  COOKIE_SECURE: z.enum(['true', 'false']).optional(),
  /** The native apps' store pages, linked from /download; a link is hidden while its setting is unset. */
  APP_STORE_URL: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  PLAY_STORE_URL: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
})

export type WebEnv = z.infer<typeof schema> & { sessionSecrets: string[]; cookieSecure: boolean }

const KEYS = Object.keys(schema.shape) as Array<keyof typeof schema.shape>
let cached: WebEnv | undefined
let cachedFrom: Array<string | undefined> = []
let settled = false

/**
 * The web process's own start (server/app.ts, through entry.server): nothing changes its
 * environment from then on, so its settings are read now and never compared again. Reading one
 * variable of process.env asks the C library each time: a comparison of every key on each call
 * was measurable in every page's CPU.
 */
export function settleWebEnv(): void {
  getWebEnv()
  settled = true
}

export function getWebEnv(): WebEnv {
  if (settled && cached) return cached
  // Re-read when the environment changed (tests switch upstreams and settings between cases, in
  // the production build too, where the compiler fixes NODE_ENV): compared value by value, nothing built.
  if (cached && KEYS.every((k, i) => process.env[k] === cachedFrom[i])) return cached
  const key = KEYS.map((k) => process.env[k])
  const parsed = schema.parse(blankToUndefined(process.env))
  const sessionSecrets = (parsed.SESSION_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (sessionSecrets.length === 0) {
    if (parsed.NODE_ENV === 'production') throw new Error('SESSION_SECRET must be set in production')
    sessionSecrets.push(DEV_SECRET)
  }
  if (parsed.NODE_ENV === 'production' && sessionSecrets.some((s) => s.length < 32)) {
    throw new Error('Every SESSION_SECRET must be at least 32 characters in production')
  }
  const cookieSecure = parsed.COOKIE_SECURE ? parsed.COOKIE_SECURE === 'true' : parsed.NODE_ENV === 'production'
  cached = { ...parsed, sessionSecrets, cookieSecure }
  cachedFrom = key
  return cached
}

/** What the browser may know. Nothing secret here. */
export function getPublicEnv() {
  const env = getWebEnv()
  return {
    brandName: env.BRAND_NAME,
    chatWidgetUrl: env.CHAT_WIDGET_URL ?? null,
    supportEmail: env.SUPPORT_EMAIL,
    googleEnabled: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
  }
}
export type PublicEnv = ReturnType<typeof getPublicEnv>

function blankToUndefined(env: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]))
}
