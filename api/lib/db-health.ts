import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely'
import type { Logger } from './logger'

/**
 * Whether the database answers, from what the queries themselves see: a query that failed because
 * the database is unreachable (api/db/connect.ts `isDbUnavailable`) opens an outage; it closes once
 * queries have succeeded for SETTLE_MS with no failure in between. An outage is two log lines,
 * "database unreachable" and "database reachable again", however many requests fail in between
 * (each of them answers 503) and however the failures come and go while connections are remade.
 */
export type DbHealth = {
  /** A query failed because the database is unreachable. */
  failed(err: unknown): void
  /** A query succeeded. */
  answered(): void
  readonly down: boolean
  /** Reports every successful query to answered(); add it to the Kysely instance. */
  readonly plugin: KyselyPlugin
}

/**
 * Failures less than this apart are one outage: after a restart or `pg_terminate_backend`, each
 * pooled connection fails on its next use while fresh ones already work.
 */
export const SETTLE_MS = 2_000

export function createDbHealth(logger: Logger, now: () => number = Date.now): DbHealth {
  let outage: { since: number; failures: number } | undefined
  let settling: NodeJS.Timeout | undefined
  const health: DbHealth = {
    get down() {
      return outage !== undefined
    },
    failed(err) {
      clearTimeout(settling)
      settling = undefined
      if (outage) {
        outage.failures++
        return
      }
      outage = { since: now(), failures: 1 }
      // The reason, not the stack: the stack says nothing an operator can act on.
      const e = err as { message?: unknown; code?: unknown } | null
      logger.error({ reason: String(e?.message ?? err), errCode: e?.code }, 'database unreachable')
    },
    answered() {
      if (!outage || settling) return
      settling = setTimeout(() => {
        settling = undefined
        if (!outage) return
        logger.info({ downMs: now() - outage.since, failures: outage.failures }, 'database reachable again')
        outage = undefined
      }, SETTLE_MS)
      settling.unref()
    },
    plugin: {
      transformQuery: (args: PluginTransformQueryArgs) => args.node,
      transformResult: async (args: PluginTransformResultArgs) => {
        health.answered()
        return args.result
      },
    },
  }
  return health
}
