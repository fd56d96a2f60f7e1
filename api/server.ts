import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import { DRAIN_MS, drainServer } from '../server/drain'
import { serveMetrics } from '../server/metrics-server'
import { createApiApp } from './app'
import { loadConfig, type ApiConfig } from './config'
import { createDb, type Db, type DbKind } from './db/connect'
import { migrateToLatest } from './db/migrate'
import type { ApiDeps } from './deps'
import { startHousekeeping } from './housekeeping'
import { createDbHealth } from './lib/db-health'
import { createHasher, type HashCost } from './lib/hash'
import type { HashGateOptions } from './lib/hash-gate'
import { createLogger, type Logger } from './lib/logger'
import { createConsoleMailer, createMailSender, createOutboxMailer, createSmtpMailer, type Mailer } from './lib/mailer'
import { createApiMetrics } from './lib/metrics'
import { paystackProvider } from './lib/payouts/paystack'
import { manualProvider, type PayoutProvider } from './lib/payouts/provider'
import { createPushSender, loadVapidKeys, type PushSender } from './lib/push'
import { loadKnownPlaces } from './models/sign-in-places'
import { startBankRefresh } from './services/banks'
import { createGoogleVerifier, type GoogleVerifier } from './services/google'
import { startDeliveryWorker } from './services/notify/worker'
import { startPayoutWorker } from './services/payouts'

export { createApiApp } from './app'
export type { ApiDeps } from './deps'
export type { ApiConfig } from './config'
export type { Mail, Mailer } from './lib/mailer'

export type StartApiOptions = {
  /** Settings over those read from `env` (default process.env). */
  config?: ConfigOverrides
  env?: NodeJS.ProcessEnv
  /** Shorthands for config.databaseUrl / config.port (0 picks a free port) / config.host. */
  databaseUrl?: string
  port?: number
  host?: string
  /** Default: the MAIL_TRANSPORT of the settings (SMTP, outbox files, or the console). */
  mailer?: Mailer
  logger?: Logger
  /** Clock in epoch ms (tests move it). */
  now?: () => number
  /** Replaces the Google id_token check (the JWKS-based one is the default). */
  google?: GoogleVerifier
  /**
   * Cost of new password and code hashes. Production always uses the default (argon2id at OWASP's
   * minimum); the test suite passes 'test' to stay fast. Deliberately not an environment setting,
   * and refused under NODE_ENV=production.
   */
  hashCost?: HashCost
  /** How many hashes run at once and how many wait (api/lib/hash-gate.ts); tests make it small. */
  hashGate?: HashGateOptions
  /** Run migrations before listening (default true). */
  migrate?: boolean
  /** Periodic clean-up of dead rows (default true). */
  housekeeping?: boolean
  /** The payout worker, when a provider pays (default true; tests call runPayoutsOnce instead). */
  payoutWorker?: boolean
  /** The notification delivery worker (default true; tests call runDeliveriesOnce instead). */
  deliveryWorker?: boolean
  /** Replaces the web-push sender (tests). */
  push?: PushSender
  /** Told of every SQL statement run (tests count the queries of a page). */
  onQuery?: (sql: string) => void
}

export type RunningApi = {
  /** Base URL, e.g. http://127.0.0.1:3001 (no trailing slash). */
  url: string
  /** Where /metrics is served (METRICS_PORT), if it is. */
  metricsUrl?: string
  config: ApiConfig
  db: Db
  dbKind: DbKind
  mailer: Mailer
  logger: Logger
  app: Express
  server: Server
  /** What the routes were given (tests spy on the hasher through it). */
  deps: ApiDeps
  /**
   * Stops: /readyz answers 503, then (after `delayMs`) no new connection is accepted, requests in
   * flight finish (at most `drainMs`), the payout worker finishes or hands back its claims, mail
   * on its way is sent, the database is closed.
   */
  close(options?: CloseOptions): Promise<void>
}

export type CloseOptions = { delayMs?: number; drainMs?: number }

export function defaultMailer(config: ApiConfig): Mailer {
  if (config.mailTransport === 'smtp' && config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom)
  if (config.mailTransport === 'console') return createConsoleMailer(config.mailFrom)
  return createOutboxMailer(config.outboxDir, config.mailFrom)
}

/** Settings a caller (a test) sets over the environment's; payouts' by field. */
export type ConfigOverrides = Partial<Omit<ApiConfig, 'payouts'>> & { payouts?: Partial<ApiConfig['payouts']> }

/** Who pays withdrawals, from PAYOUT_PROVIDER. */
export function payoutProviderOf(config: ApiConfig): PayoutProvider {
  const p = config.payouts
  if (p.provider === 'manual') return manualProvider
  return paystackProvider({ secretKey: p.paystackSecretKey, baseUrl: p.paystackBaseUrl, timeoutMs: p.requestTimeoutMs })
}

/** Loads settings, opens and migrates the database, and listens. Used by api/main.ts and tests. */
export async function startApi(options: StartApiOptions = {}): Promise<RunningApi> {
  const loaded = loadConfig(options.env ?? process.env)
  const config: ApiConfig = {
    ...loaded,
    ...options.config,
    // A caller naming some payout settings keeps the others' defaults.
    payouts: { ...loaded.payouts, ...options.config?.payouts },
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
    ...(options.port !== undefined && { port: options.port }),
    ...(options.host !== undefined && { host: options.host }),
  }
  const logger = options.logger ?? createLogger(config.logLevel)
  const now = options.now ?? Date.now
  const mailer = options.mailer ?? defaultMailer(config)
  if (!options.mailer && config.mailTransport !== 'smtp') {
    logger.warn(
      { mailTransport: config.mailTransport, outboxDir: config.outboxDir },
      'e-mails (and their codes) are not sent: they go to the console and the outbox folder',
    )
  }
  const hashCost = options.hashCost ?? 'production'
  if (hashCost !== 'production' && process.env.NODE_ENV === 'production') {
    throw new Error('the test hash cost is refused in production')
  }

  const dbHealth = createDbHealth(logger)
  const created = createDb(config.databaseUrl, { onConnectionError: (err) => dbHealth.failed(err), onQuery: options.onQuery })
  const { kind, pool } = created
  const db = created.db.withPlugin(dbHealth.plugin)
  try {
    if (options.migrate !== false) await migrateToLatest(db)
  } catch (err) {
    await db.destroy()
    throw err
  }
  // Where people signed in before, in memory: a flood of strangers is turned away without a query.
  await loadKnownPlaces(db).catch((err: Error) => logger.warn({ reason: err.message }, 'known sign-in places not loaded'))
  const hasher = createHasher(hashCost, options.hashGate)
  void hasher.warmUp()

  const deps: ApiDeps = {
    config,
    db,
    dbKind: kind,
    dbWrites: created.writes,
    logger,
    mail: createMailSender(mailer, logger),
    now,
    google: options.google ?? createGoogleVerifier({ clientIds: config.googleClientIds, jwksUrl: config.googleJwksUrl, now }),
    hasher,
    dbHealth,
    payouts: payoutProviderOf(config),
    lifecycle: { stopping: false },
    metrics: createApiMetrics({ db, pool, gate: hasher.gate, now, payoutStuckMs: config.payouts.stuckMs }),
    notify: { mailer, push: options.push ?? createPushSender(loadVapidKeys(config.notify, logger), config.notify.vapidSubject) },
  }
  const app = createApiApp(deps)
  const server = createServer(app)
  // Longer than the usual proxy idle timeout, so the proxy closes first, never mid-request.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const metricsServer = config.metrics.port === null ? undefined : await serveMetrics(deps.metrics.registry, config.metrics)
  const housekeeping = options.housekeeping === false ? undefined : startHousekeeping(deps)
  // The bank list (decision 039): read at start, refreshed from the payout provider daily.
  const bankRefresh = options.housekeeping === false ? undefined : startBankRefresh(deps)
  const payoutWorker = options.payoutWorker === false || deps.payouts.name === 'manual' ? undefined : startPayoutWorker(deps)
  const deliveryWorker = options.deliveryWorker === false ? undefined : startDeliveryWorker(deps)
  const { port } = server.address() as AddressInfo
  const host = config.host.includes(':') ? `[${config.host}]` : config.host

  let closing: Promise<void> | undefined
  const close = ({ delayMs = 0, drainMs = DRAIN_MS }: CloseOptions = {}) =>
    (closing ??= (async () => {
      deps.lifecycle.stopping = true
      // /readyz answers 503 first, so a balancer that polls it sends nothing new before the port closes.
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      await Promise.all([drainServer(server, drainMs), payoutWorker?.stop(drainMs), deliveryWorker?.stop(drainMs)])
      await metricsServer?.close()
      await housekeeping?.stop()
      await bankRefresh?.stop()
      await deps.mail.idle()
      await mailer.close?.()
      await db.destroy()
    })())

  return {
    url: `http://${host}:${port}`,
    metricsUrl: metricsServer?.url,
    config,
    db,
    dbKind: kind,
    mailer,
    logger,
    app,
    server,
    deps,
    close,
  }
}
