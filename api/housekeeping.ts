import { isDbUnavailable } from './db/connect'
import type { ApiDeps } from './deps'
import { deleteOldCodes } from './models/email-codes'
import { deleteEndedRateLimits } from './models/rate-limits'
import { deleteDeadSessions } from './models/sessions'
import { lapseOffers } from './services/orders'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Every hour, deletes rows that can no longer matter: ended rate-limit windows, codes a day past
 * expiry, sessions a week past expiry or revocation. Every minute, closes the lower offers left
 * unanswered past their deadline (decision 051). Every instance may run both: the deletes are
 * idempotent and each lapse is a guarded move. stop() waits for a run in progress, so the database
 * can be closed after it.
 */
export function startHousekeeping(deps: ApiDeps, everyMs = HOUR, lapseEveryMs = MINUTE): { stop(): Promise<void> } {
  const deletes = every(deps, everyMs, 'housekeeping failed', async (now) => {
    await deleteEndedRateLimits(deps.db, now)
    await deleteOldCodes(deps.db, now - DAY)
    await deleteDeadSessions(deps.db, now, 7 * DAY)
  })
  const lapses = every(deps, lapseEveryMs, 'closing lapsed offers failed', async () => {
    const closed = await lapseOffers(deps)
    if (closed > 0) deps.logger.info({ closed }, 'lower offers lapsed')
  })
  return {
    async stop() {
      await Promise.all([deletes.stop(), lapses.stop()])
    },
  }
}

/** One job on a timer: never two runs at once, a database outage told to the health check. */
function every(deps: ApiDeps, ms: number, failure: string, job: (now: number) => Promise<void>) {
  let running: Promise<void> | undefined
  const run = () => {
    if (running) return
    running = job(deps.now())
      .catch((err: unknown) => {
        if (isDbUnavailable(err)) deps.dbHealth.failed(err)
        else deps.logger.warn({ err }, failure)
      })
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(run, ms)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
