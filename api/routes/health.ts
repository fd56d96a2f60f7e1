import { Router } from 'express'
import { sql } from 'kysely'
import { Code } from '#contract/envelope'
import { isDbUnavailable } from '../db/connect'
import type { ApiDeps } from '../deps'
import { sendEnvelope } from '../lib/envelope'
import { msg } from '../lib/messages'

/** For load balancers and `npm start`: 200 when the database answers, 503 when it does not. */
export function healthRoutes(deps: ApiDeps): Router {
  const r = Router()
  r.get('/healthz', async (_req, res) => {
    try {
      await sql`select 1`.execute(deps.db)
      sendEnvelope(res, 200, { code: Code.OK, msg: msg.ok, data: { db: 'ok' } })
    } catch (err) {
      // An outage is logged once (dbHealth), not at every poll of a load balancer.
      if (isDbUnavailable(err)) deps.dbHealth.failed(err)
      else deps.logger.warn({ err }, 'health check: database did not answer')
      sendEnvelope(res, 503, { code: Code.SERVICE_UNAVAILABLE, msg: msg.unavailable, data: { db: 'down' } })
    }
  })
  return r
}
