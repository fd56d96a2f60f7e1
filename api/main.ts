/**
 * The api process (`npm run start:api` runs the bundle of this file): settings from the
 * environment, migrations, listen, and a graceful stop on SIGTERM/SIGINT.
 */
import { DRAIN_MS } from '../server/drain'
import { loadConfig } from './config'
import { createLogger } from './lib/logger'
import { startApi } from './server'

/** The exit code of settings the api refuses (sysexits' EX_CONFIG); scripts/lib/processes.mjs knows it too. */
const SETTINGS_REFUSED = 78

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    // EX_CONFIG: a supervisor (scripts/start.mjs) stops instead of restarting into the same refusal.
    process.exit(SETTINGS_REFUSED)
  }
  const logger = createLogger(config.logLevel)
  const api = await startApi({ config, logger }).catch((err: unknown) => {
    logger.fatal({ err }, 'api could not start')
    process.exit(1)
  })
  logger.info({ url: api.url, db: api.dbKind, mailTransport: config.mailTransport, trustProxy: config.trustProxy }, 'api listening')

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'api stopping')
    // Whatever happens, do not hang past what an orchestrator waits before SIGKILL.
    setTimeout(() => process.exit(1), DRAIN_MS + 4_000).unref()
    api.close({ delayMs: stopDelayMs() }).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'api did not stop cleanly')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/** SHUTDOWN_DELAY_MS: how long /readyz answers 503 before the port closes (for balancers that poll it). */
function stopDelayMs() {
  const ms = Number(process.env.SHUTDOWN_DELAY_MS ?? 0)
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 10_000) : 0
}

void main()
