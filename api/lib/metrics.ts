import type { NextFunction, Request, Response } from 'express'
import { sql } from 'kysely'
import type pg from 'pg'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Db } from '../db/connect'
import type { HashGate } from './hash-gate'

/**
 * What the api reports to Prometheus (decision 022), one registry per api instance. Labels are
 * closed sets — a route's pattern, a status, an outcome — never a URL, an id or an address, so no
 * person can be read from them and the number of series stays fixed.
 */
export type ApiMetrics = {
  registry: Registry
  /** One count per payout the worker or a webhook moved: success, failed, reversed, or provider_unavailable. */
  payoutOutcome(outcome: 'success' | 'failed' | 'reversed' | 'provider_unavailable'): void
  /** One count per payout alert raised (decision 038): a conflict, a payout before a person, a low float, an OTP, a reconciliation difference. */
  payoutAlert(kind: PayoutAlertKind): void
  /** Express middleware: request count and latency by route pattern, method and status. */
  requests(req: Request, res: Response, next: NextFunction): void
}

export type PayoutAlertKind = 'conflict' | 'needs_person' | 'low_balance' | 'otp' | 'reconcile_difference'

/** What the gauges read at scrape time; `payoutStuckMs`: a payout open longer is stuck. */
type Sources = { db: Db; pool?: pg.Pool; gate: Pick<HashGate, 'running' | 'waiting'>; now: () => number; payoutStuckMs?: number }

const ORDER_STATUSES = ['pending', 'reviewing', 'proposed', 'completed', 'rejected', 'cancelled', 'declined']
const WITHDRAWAL_STATUSES = ['pending', 'processing', 'success', 'failed', 'reversed']

/**
 * How often the event-loop lag is sampled: prom-client's default timer every 10 ms wakes the api a
 * hundred times a second while it waits for the database, a cost per second of waiting rather than
 * per call (decision 064, as in the web). Ten samples a second still show a blocked loop.
 */
export const EVENT_LOOP_SAMPLE_MS = 100

export function createApiMetrics(sources: Sources): ApiMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS })
  const labelNames = ['method', 'route', 'status'] as const
  const requestsTotal = new Counter({ name: 'http_requests_total', help: 'Requests answered', labelNames, registers: [registry] })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const payouts = new Counter({
    name: 'payout_outcomes_total',
    help: 'Payouts moved, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  })
  const alerts = new Counter({
    name: 'payout_alerts_total',
    help: 'Payout alerts raised, by kind',
    labelNames: ['kind'],
    registers: [registry],
  })
  stateGauges(registry, sources)
  return {
    registry,
    payoutOutcome: (outcome) => payouts.inc({ outcome }),
    payoutAlert: (kind) => alerts.inc({ kind }),
    requests(req, res, next) {
      const end = duration.startTimer()
      res.on('finish', () => {
        const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) }
        end(labels)
        requestsTotal.inc(labels)
      })
      next()
    },
  }
}

/** The pattern Express matched (`/v1/withdraw/detail`, `/avatar/:id`), never the URL a client sent. */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched'
}

/** Gauges read from the database and the process when Prometheus scrapes. */
function stateGauges(registry: Registry, { db, pool, gate, now, payoutStuckMs = 30 * 60_000 }: Sources) {
  const byStatus = async (table: 'orders' | 'withdrawals', statuses: string[], gauge: Gauge<'status'>) => {
    const rows = await db
      .selectFrom(table)
      .select(['status', sql<number>`count(*)`.as('n')])
      .groupBy('status')
      .execute()
    const counts = new Map(rows.map((r) => [r.status, Number(r.n)]))
    for (const status of new Set([...statuses, ...counts.keys()])) gauge.set({ status }, counts.get(status) ?? 0)
  }
  const oldest = async (table: 'orders' | 'withdrawals', statuses: string[], gauge: Gauge) => {
    const row = await db
      .selectFrom(table)
      .select(sql<number | null>`min(created_at)`.as('at'))
      .where('status', 'in', statuses)
      .executeTakeFirst()
    gauge.set(row?.at == null ? 0 : Math.max(0, (now() - Number(row.at)) / 1000))
  }
  new Gauge({
    name: 'orders',
    help: 'Orders by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      await byStatus('orders', ORDER_STATUSES, this)
    },
  })
  new Gauge({
    name: 'withdrawals',
    help: 'Withdrawals by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      await byStatus('withdrawals', WITHDRAWAL_STATUSES, this)
    },
  })
  new Gauge({
    name: 'oldest_waiting_order_age_seconds',
    help: 'Age of the oldest order waiting for review (pending or reviewing); 0 when none waits',
    registers: [registry],
    async collect() {
      await oldest('orders', ['pending', 'reviewing'], this)
    },
  })
  new Gauge({
    name: 'oldest_waiting_withdrawal_age_seconds',
    help: 'Age of the oldest withdrawal not paid yet (pending or processing); 0 when none waits',
    registers: [registry],
    async collect() {
      await oldest('withdrawals', ['pending', 'processing'], this)
    },
  })
  new Gauge({
    name: 'payouts_needing_attention',
    help: 'Automatic payouts a person must look at: stuck (open too long), needs_person (unknown too long), conflict',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const row = await db
        .selectFrom('withdrawals')
        .select((eb) => [
          eb.fn
            .sum<number>(
              eb
                .case()
                .when('created_at', '<', now() - payoutStuckMs)
                .then(1)
                .else(0)
                .end(),
            )
            .as('stuck'),
          eb.fn.count<number>('payout_needs_person_at').as('needs_person'),
          eb.fn.count<number>('payout_conflict').as('conflict'),
        ])
        .where('payout_provider', 'is not', null)
        .where((eb) => eb.or([eb('status', 'in', ['pending', 'processing']), eb('payout_conflict', 'is not', null)]))
        .executeTakeFirst()
      this.set({ kind: 'stuck' }, Number(row?.stuck ?? 0))
      this.set({ kind: 'needs_person' }, Number(row?.needs_person ?? 0))
      this.set({ kind: 'conflict' }, Number(row?.conflict ?? 0))
    },
  })
  new Gauge({
    name: 'hash_gate',
    help: 'Password, code and PIN hashes at the hash gate, running and waiting',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'running' }, gate.running)
      this.set({ state: 'waiting' }, gate.waiting)
    },
  })
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool: connections in use, idle, and queries waiting for one (SQLite: one connection, always in use)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!pool) return void this.set({ state: 'in_use' }, 1)
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount)
      this.set({ state: 'idle' }, pool.idleCount)
      this.set({ state: 'waiting' }, pool.waitingCount)
    },
  })
}
