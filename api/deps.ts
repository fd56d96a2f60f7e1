import type { ApiConfig } from './config'
import type { Db, DbKind } from './db/connect'
import type { DbHealth } from './lib/db-health'
import type { Hasher } from './lib/hash'
import type { Logger } from './lib/logger'
import type { Mailer, MailSender } from './lib/mailer'
import type { ApiMetrics } from './lib/metrics'
import type { PayoutProvider } from './lib/payouts/provider'
import type { PushSender } from './lib/push'
import type { GoogleVerifier } from './services/google'

/** Everything a route needs, built once by startApi (or a test) and handed to createApiApp. */
export type ApiDeps = {
  config: ApiConfig
  db: Db
  dbKind: DbKind
  /** How many writes (and commits) this process has made through `db` so far (db/connect.ts). */
  dbWrites: () => number
  logger: Logger
  mail: MailSender
  /** The clock, in epoch ms. Injectable so tests can move time (code lifetime, token expiry). */
  now: () => number
  google: GoogleVerifier
  /** argon2id for passwords and codes (a cheaper cost only in the test suite), bounded in concurrency. */
  hasher: Hasher
  /** Opens and closes database outages: one log line each way, 503 in between. */
  dbHealth: DbHealth
  /** Who pays withdrawals: `manual` (operators by hand) or a provider (PAYOUT_PROVIDER). */
  payouts: PayoutProvider
  /** Whether the process is on its way out (SIGTERM): /readyz answers 503 from then on. */
  lifecycle: { stopping: boolean }
  /** Prometheus counters and gauges of this instance (lib/metrics.ts). */
  metrics: ApiMetrics
  /** Push and e-mail beyond the app (decision 046): the delivery worker awaits the mailer itself. */
  notify: { mailer: Mailer; push: PushSender }
}
