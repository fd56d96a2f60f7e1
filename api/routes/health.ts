import { Router, type Response } from 'express'
import { Migrator, sql } from 'kysely'
import { Code } from '#contract/envelope'
import { isDbUnavailable } from '../db/connect'
import { migrations } from '../db/migrate'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'

type Check = 'ok' | 'down' | 'behind' | 'missing' | 'stopping'

/**
 * For load balancers and orchestrators. /healthz: the process is alive and its database answers
 * (a restart would not help otherwise, but `npm start` waits on it). /readyz: send it traffic —
 * the database answers, every migration this build knows has run, the payout provider has its
 * settings, and the process is not stopping (it answers 503 first when SIGTERM arrives).
 */
export function healthRoutes(deps: ApiDeps): Router {
  const r = Router()
  const dbCheck = async (): Promise<'ok' | 'down'> => {
    try {
      await sql`select 1`.execute(deps.db)
      return 'ok'
    } catch (err) {
      // An outage is logged once (dbHealth), not at every poll of a load balancer.
      if (isDbUnavailable(err)) deps.dbHealth.failed(err)
      else deps.logger.warn({ err }, 'health check: database did not answer')
      return 'down'
    }
  }
  const answer = (res: Response, ok: boolean, data: Record<string, Check>) =>
    ok
      ? sendEnvelope(res, 200, { code: Code.OK, msg: msg.ok, data })
      : sendEnvelope(res, 503, { code: Code.SERVICE_UNAVAILABLE, msg: msg.unavailable, data })

  r.get('/healthz', async (_req, res) => {
    const db = await dbCheck()
    answer(res, db === 'ok', { db })
  })

  r.get('/readyz', async (_req, res) => {
    if (deps.lifecycle.stopping) return answer(res, false, { process: 'stopping' })
    const db = await dbCheck()
    const schema = db === 'ok' ? await migrationsApplied(deps) : 'down'
    const p = deps.config.payouts
    const payouts: Check = p.provider === 'manual' || p.paystackSecretKey ? 'ok' : 'missing'
    answer(res, db === 'ok' && schema === 'ok' && payouts === 'ok', { db, migrations: schema, payouts })
  })
  return r
}

/** 'ok' when every migration of this build has run: an instance of a newer build waits for its migrations. */
async function migrationsApplied(deps: ApiDeps): Promise<Check> {
  try {
    const known = await new Migrator({ db: deps.db, provider: { getMigrations: async () => migrations } }).getMigrations()
    return known.every((m) => m.executedAt !== undefined) ? 'ok' : 'behind'
  } catch {
    return 'down'
  }
}
