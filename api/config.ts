import { z } from 'zod'

/**
 * The api's settings, read once from the environment and validated (Epic Stack's env.server.ts habit):
 * a bad value stops the process at start with a message naming it, not at the first request.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback)

/** Express `trust proxy`: "true"/"false", a hop count, or a comma list of addresses/subnets/names. */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v): boolean | number | string => {
    if (v === undefined || v === '' || v === 'false') return false
    if (v === 'true') return true
    if (/^\d+$/.test(v)) return Number(v)
    return v
  })

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .default('file:data/cardlane.db')
    .refine((u) => u.startsWith('file:') || /^postgres(ql)?:\/\//.test(u) || u === ':memory:', {
      message: 'must be file:<path> (SQLite) or postgres://… (PostgreSQL)',
    }),
  API_PORT: intFrom(3001, 0, 65535),
  API_HOST: z.string().trim().min(1).default('127.0.0.1'),
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  OUTBOX_DIR: z.string().trim().min(1).default('data/outbox'),
  MAIL_FROM: z.string().trim().min(3).default('Cardlane <no-reply@cardlane.local>'),
  BRAND_NAME: z.string().trim().min(1).default('Cardlane'),
  /** Comma list of OAuth client ids whose id_tokens we accept (the `aud` claim). */
  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  GOOGLE_JWKS_URL: z.string().trim().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  TOKEN_TTL_DAYS: intFrom(30, 1, 3650),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TRUST_PROXY: trustProxy,
  /** Requests to /auth/* per client IP per 15 minutes, shared by every api instance (DB-backed). */
  AUTH_RATE_LIMIT: intFrom(100, 1, 1_000_000),
  /** Failed password sign-ins per e-mail address per 15 minutes. */
  LOGIN_FAIL_LIMIT: intFrom(10, 1, 1_000_000),
})

export type ApiConfig = {
  databaseUrl: string
  port: number
  host: string
  smtpUrl: string | undefined
  outboxDir: string
  mailFrom: string
  brandName: string
  googleClientIds: string[]
  googleJwksUrl: string
  tokenTtlDays: number
  logLevel: (typeof LOG_LEVELS)[number]
  trustProxy: boolean | number | string
  authRateLimit: number
  loginFailLimit: number
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid api settings:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.API_PORT,
    host: e.API_HOST,
    smtpUrl: e.SMTP_URL,
    outboxDir: e.OUTBOX_DIR,
    mailFrom: e.MAIL_FROM,
    brandName: e.BRAND_NAME,
    googleClientIds: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    tokenTtlDays: e.TOKEN_TTL_DAYS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    authRateLimit: e.AUTH_RATE_LIMIT,
    loginFailLimit: e.LOGIN_FAIL_LIMIT,
  }
}
