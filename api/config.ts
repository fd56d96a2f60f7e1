import { z } from 'zod'
import { DEFAULT_BRAND_NAME, DEFAULT_SUPPORT_EMAIL } from '#contract/brand'
import type { TaskId } from '#contract/tasks'
import { parseTrustedWeb } from './lib/client-address'

/**
 * The api's settings, read once from the environment and validated (Epic Stack's env.server.ts habit):
 * a bad value stops the process at start with a message naming it, not at the first request.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const intFrom = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback)

/** The web tier whose X-Forwarded-For is believed (api/lib/client-address.ts); unset is decided in loadConfig. */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): string[] | undefined => {
    if (!v) return undefined
    const parsed = parseTrustedWeb(v)
    if ('entries' in parsed) return parsed.entries
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.problem })
    return z.NEVER
  })

const MAIL_TRANSPORTS = ['smtp', 'outbox', 'console'] as const
export type MailTransport = (typeof MAIL_TRANSPORTS)[number]

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
  /** Prometheus /metrics on a port of its own (decision 022); unset: no metrics listener. */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** smtp (SMTP_URL), outbox (.eml files in OUTBOX_DIR, also printed), console (printed only). */
  MAIL_TRANSPORT: z.preprocess((v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined), z.enum(MAIL_TRANSPORTS).optional()),
  OUTBOX_DIR: z.string().trim().min(1).default('data/outbox'),
  MAIL_FROM: z.string().trim().min(3).default(`${DEFAULT_BRAND_NAME} <no-reply@cardlane.local>`),
  BRAND_NAME: z.string().trim().min(1).default(DEFAULT_BRAND_NAME),
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
  // The wallet (amounts in minor units of CURRENCY: kobo for NGN).
  CURRENCY: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like NGN')
    .default('NGN'),
  WITHDRAW_MIN: intFrom(100_000, 1, 1e12),
  WITHDRAW_DAILY_MAX: intFrom(50_000_000, 1, 1e13),
  WITHDRAW_FEE: intFrom(5_000, 0, 1e10),
  WITHDRAW_PAYOUT_HOURS: intFrom(24, 1, 24 * 14),
  /** Wallet adjustments whose size is over this (minor units) wait for a second admin's approval. */
  ADJUSTMENT_APPROVAL_MIN: intFrom(100_000_000, 0, 1e13),
  /** A new rate more than this many percent from the one in force needs a confirmation step (decision 041). */
  RATE_CONFIRM_CHANGE: intFrom(20, 1, 1000),
  /** Beyond this many percent it needs a second admin too. */
  RATE_APPROVAL_CHANGE: intFrom(50, 1, 1000),
  /** Hours a person has to answer a lower offer before it lapses (the order closes, the card stays theirs). */
  OFFER_ANSWER_HOURS: intFrom(48, 1, 24 * 14),
  /** Time zone of "today" for the daily withdrawal maximum. */
  TIME_ZONE: z
    .string()
    .trim()
    .default('Africa/Lagos')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz })
        return true
      } catch {
        return false
      }
    }, 'must be an IANA time zone like Africa/Lagos'),
  /** Mixed into every PIN hash (HMAC) so a stolen database alone cannot be brute-forced. */
  PIN_PEPPER: z.string().optional(),
  /** Operators' bearer token for /admin/*; unset turns /admin off. */
  ADMIN_TOKEN: z.string().optional(),
  // Selling gift cards (contract/orders.ts, contract/uploads.ts).
  /** Encrypts e-codes at rest (AES-256-GCM) and keys their duplicate check (HMAC); ≥ 32 characters. */
  CODES_KEY: z.string().optional(),
  /** The web's public origin: e-mails link to its screens and its unsubscribe page (decision 046). */
  PUBLIC_URL: z.string().trim().url().default('http://localhost:3000'),
  /** VAPID keys of web push (base64url, as `web-push generate-vapid-keys` prints them); unset: a file, outside production. */
  VAPID_PUBLIC_KEY: z.string().trim().optional(),
  VAPID_PRIVATE_KEY: z.string().trim().optional(),
  /** Who push services may contact about our pushes: mailto: or https:. */
  VAPID_SUBJECT: z.string().trim().optional(),
  /** Where development keeps the VAPID keys it made once (readable by its owner only). */
  VAPID_KEY_FILE: z.string().trim().min(1).default('data/vapid-keys.json'),
  /** How many pushes or e-mails the delivery worker sends at once, and how long one may take. */
  NOTIFY_CONCURRENCY: intFrom(8, 1, 64),
  NOTIFY_SEND_TIMEOUT_MS: intFrom(10_000, 100, 120_000),
  /** Where card photos are kept: disk (UPLOAD_DIR) or s3 (any S3-compatible service). */
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  UPLOAD_DIR: z.string().trim().min(1).default('data/uploads'),
  S3_BUCKET: z.string().trim().optional(),
  /** e.g. https://s3.eu-west-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com, http://minio:9000; unset: AWS by region. */
  S3_ENDPOINT: z.string().trim().url().optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** Unset: the SDK's usual chain (environment, instance role…). */
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
  /** Bucket in the path (most S3-compatible services) rather than the host name; default true with S3_ENDPOINT. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** Key prefix inside the bucket, e.g. cardlane/. */
  S3_PREFIX: z.string().trim().max(200).default(''),
  /** Photos one person may upload per 24 hours. */
  UPLOADS_PER_DAY: intFrom(200, 1, 100_000),
  // Task rewards (contract/tasks.ts), minor units of CURRENCY; 0 switches the task off.
  TASK_REWARD_SET_PIN: intFrom(50_000, 0, 1e10),
  TASK_REWARD_ADD_BANK_CARD: intFrom(50_000, 0, 1e10),
  TASK_REWARD_FIRST_ORDER: intFrom(100_000, 0, 1e10),
  TASK_REWARD_FIVE_ORDERS: intFrom(250_000, 0, 1e10),
  // Payouts (decision 018): who pays a withdrawal.
  /** manual: operators pay by hand; paystack: Paystack's Transfers API pays, a worker sends. */
  PAYOUT_PROVIDER: z.enum(['manual', 'paystack']).default('manual'),
  /** Paystack's secret key: authenticates our calls and signs its webhooks. */
  PAYSTACK_SECRET_KEY: z.string().trim().optional(),
  PAYSTACK_BASE_URL: z.string().trim().url().default('https://api.paystack.co'),
  /** Above this (minor units, fee included) a payout waits for an operator's approval. */
  AUTO_PAYOUT_MAX: intFrom(10_000_000, 0, 1e13),
  /** How long a sent transfer waits for its webhook before we ask the provider (doubling after). */
  PAYOUT_POLL_SECONDS: intFrom(60, 1, 86_400),
  /** Each provider call gives up after this long; the transfer is then asked for by reference. */
  PAYSTACK_TIMEOUT_MS: intFrom(20_000, 100, 120_000),
  /** A worker's claim on a withdrawal; after a crash another worker takes it once this has passed. */
  PAYOUT_LEASE_SECONDS: intFrom(120, 1, 3_600),
  /** Verify's "Transfer not found" means absent only this long after a send that may have reached Paystack (read-after-write lag). */
  PAYOUT_NOT_FOUND_GRACE_SECONDS: intFrom(600, 1, 86_400),
  /** A payout unknown this long goes before a person on the payout desk (it keeps its hold and is still asked). */
  PAYOUT_UNKNOWN_LIMIT_SECONDS: intFrom(3_600, 1, 7 * 86_400),
  /** A payout pending or processing longer than this is escalated on the desk and in the metrics. */
  PAYOUT_STUCK_MINUTES: intFrom(30, 1, 7 * 1_440),
  /** How often the worker asks Paystack's balance besides before each batch. */
  PAYOUT_BALANCE_SECONDS: intFrom(300, 10, 86_400),
  NODE_ENV: z.string().optional(),
  // Banks (decision 039).
  /** How often the bank list is asked of the payout provider. */
  BANKS_REFRESH_HOURS: intFrom(24, 1, 24 * 30),
  /** A bank account the bank last named longer ago than this is named again before a payout. */
  BANK_NAME_RECHECK_DAYS: intFrom(90, 1, 3_650),
  /** A payout of at least this (minor units) names the account again first. */
  BANK_NAME_RECHECK_AMOUNT: intFrom(50_000_000, 0, 1e13),
})

export type ApiConfig = {
  databaseUrl: string
  port: number
  host: string
  /** Where Prometheus scrapes /metrics (port null: not served). */
  metrics: { port: number | null; host: string }
  smtpUrl: string | undefined
  mailTransport: MailTransport
  outboxDir: string
  mailFrom: string
  brandName: string
  googleClientIds: string[]
  googleJwksUrl: string
  tokenTtlDays: number
  logLevel: (typeof LOG_LEVELS)[number]
  /** Express `trust proxy`: the web tier's addresses, subnets and range names; empty believes no one. */
  trustProxy: string[]
  authRateLimit: number
  loginFailLimit: number
  wallet: WalletConfig
  /** Bearer token of operators; undefined turns /admin off. */
  adminToken: string | undefined
  /** Percent changes of a rate that need a confirmation step, then a second admin. */
  rateChecks: { confirmPercent: number; approvalPercent: number }
  selling: SellingConfig
  tasks: TasksConfig
  payouts: PayoutsConfig
  banks: BanksConfig
  notify: NotifyConfig
}

export type NotifyConfig = {
  /** The web's origin, no trailing slash. */
  publicUrl: string
  /** Both keys from the settings, or undefined (then the key file outside production, else no push). */
  vapid: { publicKey: string; privateKey: string } | undefined
  vapidSubject: string
  vapidKeyFile: string
  production: boolean
  concurrency: number
  sendTimeoutMs: number
  /** A claim on a delivery lasts this long: longer than one send may take. */
  leaseMs: number
}

export type BanksConfig = { refreshMs: number; nameRecheckMs: number; nameRecheckAmount: number }

export type PayoutsConfig = {
  provider: 'manual' | 'paystack'
  /** Never logged or answered. */
  paystackSecretKey: string
  /** No trailing slash. */
  paystackBaseUrl: string
  autoPayoutMax: number
  pollSeconds: number
  /** Each provider call gives up after this long (then: ask again by reference later). */
  requestTimeoutMs: number
  /** How long a worker's claim on a withdrawal lasts. */
  leaseMs: number
  /** Verify's "not found" means absent only this long after a send that may have reached the provider. */
  notFoundGraceMs: number
  /** Unknown this long: the payout goes before a person. */
  unknownLimitMs: number
  /** Pending or processing this long: escalated. */
  stuckMs: number
  /** How often the worker asks the provider's balance besides before each batch. */
  balanceEveryMs: number
}

/** The reward of each task (contract TaskId), in minor units of the wallet's currency; 0 = not offered. */
export type TasksConfig = { rewards: Record<TaskId, number> }

export type StorageConfig =
  | { driver: 'disk'; dir: string }
  | {
      driver: 's3'
      bucket: string
      endpoint: string | undefined
      region: string
      accessKeyId: string | undefined
      secretAccessKey: string | undefined
      forcePathStyle: boolean
      prefix: string
    }

export type SellingConfig = {
  /** CODES_KEY: the secret both the e-code cipher key and the duplicate-check HMAC key derive from. */
  codesKey: string
  storage: StorageConfig
  uploadsPerDay: number
  /** OFFER_ANSWER_HOURS in ms: how long a lower offer waits for the person's answer. */
  offerAnswerMs: number
}

export type WalletConfig = {
  currency: string
  withdrawMin: number
  withdrawDailyMax: number
  withdrawFee: number
  payoutHours: number
  /** |amount| over this needs a second admin (maker-checker). */
  adjustmentApprovalMin: number
  timeZone: string
  pinPepper: string
}

const DEV_PIN_PEPPER = 'dev-only-pin-pepper-change-me'
const DEV_CODES_KEY = 'dev-only-codes-key-change-me-0123456789abcdef'

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid api settings:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const problems: string[] = []
  const production = e.NODE_ENV === 'production'
  // Production states who may tell us a visitor's address, and where codes go: a default here
  // either locked everyone out behind one web address or printed every code to the log.
  if (production && e.TRUST_PROXY === undefined) {
    problems.push(
      '  TRUST_PROXY: must be set in production to the addresses or subnet of the web servers that call this api (e.g. loopback, 10.0.1.0/24), or none',
    )
  }
  const mailTransport: MailTransport = e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : 'outbox')
  if (production && !e.MAIL_TRANSPORT && !e.SMTP_URL) {
    problems.push(
      '  MAIL_TRANSPORT: must be set in production: smtp (with SMTP_URL), or outbox / console to write mails, codes included, to files and the log (for trying the app only)',
    )
  }
  if (mailTransport === 'smtp' && !e.SMTP_URL) problems.push('  MAIL_TRANSPORT: smtp needs SMTP_URL')
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined)) {
    problems.push('  VAPID_PUBLIC_KEY: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither')
  }
  if (e.NODE_ENV === 'production' && (!e.PIN_PEPPER || e.PIN_PEPPER.length < 32)) {
    problems.push('  PIN_PEPPER: must be set to at least 32 random characters in production')
  }
  if (production && (!e.CODES_KEY || e.CODES_KEY.length < 32)) {
    problems.push(
      '  CODES_KEY: must be set to at least 32 random characters in production (it encrypts gift-card codes; keep it with the database backups)',
    )
  } else if (e.CODES_KEY && e.CODES_KEY.length < 32) problems.push('  CODES_KEY: must be at least 32 characters')
  if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('  S3_BUCKET: STORAGE=s3 needs the bucket name')
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push('  S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither')
  }
  if (e.ADMIN_TOKEN && e.ADMIN_TOKEN.length < 32)
    problems.push('  ADMIN_TOKEN: must be at least 32 characters (or unset to turn /admin off)')
  if (e.WITHDRAW_MIN <= e.WITHDRAW_FEE) problems.push('  WITHDRAW_MIN: must be more than WITHDRAW_FEE')
  if (e.WITHDRAW_DAILY_MAX < e.WITHDRAW_MIN) problems.push('  WITHDRAW_DAILY_MAX: must be at least WITHDRAW_MIN')
  if (e.PAYOUT_PROVIDER === 'paystack') {
    if (!e.PAYSTACK_SECRET_KEY)
      problems.push('  PAYSTACK_SECRET_KEY: PAYOUT_PROVIDER=paystack needs the secret key of the Paystack integration')
    else if (production && !e.PAYSTACK_SECRET_KEY.startsWith('sk_live_')) {
      problems.push('  PAYSTACK_SECRET_KEY: production pays with a live key (sk_live_…)')
    }
    if (production && !e.PAYSTACK_BASE_URL.startsWith('https://')) problems.push('  PAYSTACK_BASE_URL: must be https:// in production')
  }
  // A claim must outlast one whole payout (up to four provider calls), or two workers could overlap.
  if (e.PAYOUT_LEASE_SECONDS * 1000 < 5 * e.PAYSTACK_TIMEOUT_MS)
    problems.push('  PAYOUT_LEASE_SECONDS: must be at least 5 × PAYSTACK_TIMEOUT_MS')
  if (problems.length) throw new Error(`Invalid api settings:\n${problems.join('\n')}`)
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.API_PORT,
    host: e.API_HOST,
    metrics: { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    smtpUrl: e.SMTP_URL,
    mailTransport,
    outboxDir: e.OUTBOX_DIR,
    mailFrom: e.MAIL_FROM,
    brandName: e.BRAND_NAME,
    googleClientIds: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    tokenTtlDays: e.TOKEN_TTL_DAYS,
    logLevel: e.LOG_LEVEL,
    // Outside production the web runs beside the api: believe this machine only.
    trustProxy: e.TRUST_PROXY ?? ['loopback'],
    authRateLimit: e.AUTH_RATE_LIMIT,
    loginFailLimit: e.LOGIN_FAIL_LIMIT,
    wallet: {
      currency: e.CURRENCY,
      withdrawMin: e.WITHDRAW_MIN,
      withdrawDailyMax: e.WITHDRAW_DAILY_MAX,
      withdrawFee: e.WITHDRAW_FEE,
      payoutHours: e.WITHDRAW_PAYOUT_HOURS,
      adjustmentApprovalMin: e.ADJUSTMENT_APPROVAL_MIN,
      timeZone: e.TIME_ZONE,
      pinPepper: e.PIN_PEPPER || DEV_PIN_PEPPER,
    },
    adminToken: e.ADMIN_TOKEN ? e.ADMIN_TOKEN : undefined,
    rateChecks: { confirmPercent: e.RATE_CONFIRM_CHANGE, approvalPercent: Math.max(e.RATE_CONFIRM_CHANGE, e.RATE_APPROVAL_CHANGE) },
    selling: {
      codesKey: e.CODES_KEY || DEV_CODES_KEY,
      storage:
        e.STORAGE === 's3'
          ? {
              driver: 's3',
              bucket: e.S3_BUCKET ?? '',
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : e.S3_ENDPOINT !== undefined,
              prefix: e.S3_PREFIX,
            }
          : { driver: 'disk', dir: e.UPLOAD_DIR },
      uploadsPerDay: e.UPLOADS_PER_DAY,
      offerAnswerMs: e.OFFER_ANSWER_HOURS * 3_600_000,
    },
    tasks: {
      rewards: {
        set_pin: e.TASK_REWARD_SET_PIN,
        add_bank_card: e.TASK_REWARD_ADD_BANK_CARD,
        first_order: e.TASK_REWARD_FIRST_ORDER,
        five_orders: e.TASK_REWARD_FIVE_ORDERS,
      },
    },
    payouts: {
      provider: e.PAYOUT_PROVIDER,
      paystackSecretKey: e.PAYSTACK_SECRET_KEY ?? '',
      paystackBaseUrl: e.PAYSTACK_BASE_URL.replace(/\/+$/, ''),
      autoPayoutMax: e.AUTO_PAYOUT_MAX,
      pollSeconds: e.PAYOUT_POLL_SECONDS,
      requestTimeoutMs: e.PAYSTACK_TIMEOUT_MS,
      leaseMs: e.PAYOUT_LEASE_SECONDS * 1000,
      notFoundGraceMs: e.PAYOUT_NOT_FOUND_GRACE_SECONDS * 1000,
      unknownLimitMs: e.PAYOUT_UNKNOWN_LIMIT_SECONDS * 1000,
      stuckMs: e.PAYOUT_STUCK_MINUTES * 60_000,
      balanceEveryMs: e.PAYOUT_BALANCE_SECONDS * 1000,
    },
    notify: {
      publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
      vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
      vapidSubject: e.VAPID_SUBJECT || `mailto:${DEFAULT_SUPPORT_EMAIL}`,
      vapidKeyFile: e.VAPID_KEY_FILE,
      production: e.NODE_ENV === 'production',
      concurrency: e.NOTIFY_CONCURRENCY,
      sendTimeoutMs: e.NOTIFY_SEND_TIMEOUT_MS,
      leaseMs: Math.max(60_000, 3 * e.NOTIFY_SEND_TIMEOUT_MS),
    },
    banks: {
      refreshMs: e.BANKS_REFRESH_HOURS * 3_600_000,
      nameRecheckMs: e.BANK_NAME_RECHECK_DAYS * 86_400_000,
      nameRecheckAmount: e.BANK_NAME_RECHECK_AMOUNT,
    },
  }
}
