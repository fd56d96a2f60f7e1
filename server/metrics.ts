import type { ServerBuild } from '@remix-run/node'
import type { RequestHandler } from 'express'
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'
import { isOpsPath, pagePath } from './page-path'

/**
 * What the web process reports to Prometheus (decision 022): page and action render time by route
 * pattern, and every api call's latency and failures by contract path. Labels are closed sets —
 * never a URL, an id, an e-mail or an address.
 */
export type WebMetrics = {
  registry: Registry
  /** Express middleware around the Remix handler: time to answer, by route pattern, method and status. */
  renders: RequestHandler
  /** One api call ended: its contract path (`/v1/wallet/info`), `ok` or the failure's kind, how long it took. */
  upstream(call: string, outcome: string, seconds: number): void
}

/** The customer's build and, when served, the console's (decision 052): each path's pattern from its own app's tree. */
/**
 * How often the event-loop lag is sampled. prom-client's default arms a timer every 10 ms, which
 * wakes the process a hundred times a second while it waits for the api: a cost per second of
 * waiting, not per page, that a page served slowly pays most of (decision 064). Ten samples a second
 * still show a blocked loop.
 */
export const EVENT_LOOP_SAMPLE_MS = 100

export function createWebMetrics(build: Pick<ServerBuild, 'routes'>, opsBuild?: Pick<ServerBuild, 'routes'>): WebMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS })
  const render = new Histogram({
    name: 'web_render_duration_seconds',
    help: 'Time to answer a page, an action or a resource route, by route pattern',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const calls = new Histogram({
    name: 'upstream_call_duration_seconds',
    help: 'Time of a call to the api, by contract path and outcome',
    labelNames: ['call', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  })
  const errors = new Counter({
    name: 'upstream_call_errors_total',
    help: 'Calls to the api that did not answer success, by contract path and kind (refused, http, timeout, network…)',
    labelNames: ['call', 'kind'],
    registers: [registry],
  })
  const customerPattern = routePatterns(build)
  const opsPattern = opsBuild ? routePatterns(opsBuild) : customerPattern
  const patternOf = (path: string) => (isOpsPath(path) ? opsPattern : customerPattern)(path)
  return {
    registry,
    renders(req, res, next) {
      const end = render.startTimer()
      res.on('finish', () => end({ method: req.method, route: patternOf(pagePath(req.path)), status: String(res.statusCode) }))
      next()
    },
    upstream(call, outcome, seconds) {
      calls.observe({ call, outcome }, seconds)
      if (outcome !== 'ok') errors.inc({ call, kind: outcome })
    },
  }
}

type Pattern = { pattern: string; segments: string[] }

/**
 * The route pattern of a path (`/wallet/withdraw/:id`), from the build's route tree, matched as
 * Remix ranks routes: a static segment over a parameter over a splat. No match: `unmatched`.
 */
export function routePatterns(build: Pick<ServerBuild, 'routes'>): (path: string) => string {
  const routes = Object.values(build.routes)
  const full = (id: string | undefined): string[] => {
    const route = id ? build.routes[id] : undefined
    if (!route) return []
    return [...full(route.parentId), ...(route.path ? route.path.split('/').filter(Boolean) : [])]
  }
  const patterns: Pattern[] = routes
    .filter((r) => r.index || r.path)
    .map((r) => {
      const segments = full(r.id)
      return { pattern: `/${segments.join('/')}`, segments }
    })
  const score = (p: Pattern, parts: string[]): number => {
    let total = 0
    for (let i = 0; i < p.segments.length; i++) {
      const s = p.segments[i]
      if (s === '*') return total + 1
      if (i >= parts.length) return -1
      if (s.startsWith(':')) total += 2
      else if (s === parts[i]) total += 3
      else return -1
    }
    return p.segments.length === parts.length ? total : -1
  }
  return (path) => {
    const parts = path.split('/').filter(Boolean)
    let best: Pattern | undefined
    let bestScore = -1
    for (const p of patterns) {
      const s = score(p, parts)
      if (s > bestScore) [best, bestScore] = [p, s]
    }
    return best?.pattern ?? 'unmatched'
  }
}
