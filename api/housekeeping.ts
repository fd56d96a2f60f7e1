import { isDbUnavailable } from './db/connect'
import type { ApiDeps } from './deps'
import { deleteOldCodes } from './models/email-codes'
import { deleteEndedRateLimits } from './models/rate-limits'
import { deleteDeadSessions } from './models/sessions'

const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * Deletes rows that can no longer matter: ended rate-limit windows, codes a day past expiry,
 * sessions a week past expiry or revocation. Every instance may run it; the deletes are idempotent.
 * stop() waits for a run in progress, so the database can be closed after it.
 */
export function startHousekeeping(deps: ApiDeps, everyMs = HOUR): { stop(): Promise<void> } {
  let running: Promise<void> | undefined
  const run = () => {
    if (running) return
    const now = deps.now()
    running = (async () => {
      await deleteEndedRateLimits(deps.db, now)
      await deleteOldCodes(deps.db, now - DAY)
      await deleteDeadSessions(deps.db, now, 7 * DAY)
    })()
      .catch((err: unknown) => {
        if (isDbUnavailable(err)) deps.dbHealth.failed(err)
        else deps.logger.warn({ err }, 'housekeeping failed')
      })
      .finally(() => {
        running = undefined
      })
  }
  const timer = setInterval(run, everyMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
