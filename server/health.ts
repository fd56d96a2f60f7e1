import { Router, type Request, type Response } from 'express'
import type { ServerEnv } from './env'

/** Whether the process is on its way out (SIGTERM): /readyz answers 503 from then on. */
export type Lifecycle = { stopping: boolean }

/** The api's /readyz answers within this, or the web is not ready. */
const API_READY_TIMEOUT_MS = 2_000

/**
 * For load balancers and orchestrators. /healthz (and the older /healthcheck): the process
 * answers. /readyz: send it traffic — it is not stopping and the api's own /readyz says ready.
 */
export function healthRoutes(env: ServerEnv, lifecycle: Lifecycle): Router {
  const r = Router()
  const alive = (_req: Request, res: Response) => {
    res.type('text/plain').send('OK')
  }
  r.get('/healthz', alive)
  r.get('/healthcheck', alive)
  r.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store')
    if (lifecycle.stopping) return res.status(503).json({ ready: false, process: 'stopping' })
    const api = await apiReady(env.apiBaseUrl)
    res.status(api === 'ok' ? 200 : 503).json({ ready: api === 'ok', api })
  })
  return r
}

async function apiReady(base: string): Promise<'ok' | 'not ready' | 'down'> {
  try {
    const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(API_READY_TIMEOUT_MS) })
    await res.body?.cancel()
    return res.ok ? 'ok' : 'not ready'
  } catch {
    return 'down'
  }
}
