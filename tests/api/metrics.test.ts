import { createRequire } from 'node:module'
import type * as PerfHooks from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiMetrics, EVENT_LOOP_SAMPLE_MS } from '../../api/lib/metrics'
import { startTestApi, type TestApi } from '../support/api'
import { walletUser, withdraw } from '../support/wallet'

/**
 * The api's Prometheus /metrics (decision 022): on a listener of its own bound to 127.0.0.1, never
 * on the api's port; requests by route pattern and status; orders and withdrawals by status and
 * the oldest one waiting; payout outcomes; the hash gate; the database pool. No personal data in
 * any label, however the calls that were counted were addressed.
 */
let api: TestApi
beforeAll(async () => {
  api = await startTestApi({ config: { metrics: { port: 0, host: '127.0.0.1' } } })
})
afterAll(async () => {
  await api?.close()
})

const scrape = async () => {
  const res = await fetch(api.metricsUrl!)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
  return res.text()
}

/** The value of one series, e.g. `withdrawals{status="pending"}`. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('/metrics', () => {
  it('samples the event-loop lag ten times a second, not a hundred: no timer wakes a waiting api every 10 ms', () => {
    // prom-client's own require of the module, so the spy sees its call.
    const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof PerfHooks
    const monitor = vi.spyOn(perfHooks, 'monitorEventLoopDelay')
    try {
      createApiMetrics({ db: api.db, gate: { running: 0, waiting: 0 }, now: Date.now })
      expect(monitor).toHaveBeenCalledWith({ resolution: EVENT_LOOP_SAMPLE_MS })
      expect(EVENT_LOOP_SAMPLE_MS).toBeGreaterThanOrEqual(100)
    } finally {
      monitor.mockRestore()
    }
  })

  it('is served on its own port of 127.0.0.1, not on the api port', async () => {
    expect(api.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    expect(new URL(api.metricsUrl!).port).not.toBe(new URL(api.url).port)
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404)
  })

  it('counts requests by route pattern and status, and reports the queues and the gate', async () => {
    const person = await walletUser(api, { balance: 500_000 })
    const w = await withdraw(api, person, 100_000)
    expect(w.body.code).toBe(200)
    await api.get(`/v1/withdraw/detail?id=${w.body.data.id}`, { token: person.token })
    api.clock.advance(90_000)
    const text = await scrape()
    expect(valueOf(text, 'http_requests_total{method="POST",route="/v1/withdraw/create",status="200"}')).toBe(1)
    expect(valueOf(text, 'http_requests_total{method="GET",route="/v1/withdraw/detail",status="200"}')).toBe(1)
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="POST",route="/v1/withdraw/create",status="200"}')
    expect(valueOf(text, 'withdrawals{status="pending"}')).toBe(1)
    expect(valueOf(text, 'withdrawals{status="success"}')).toBe(0)
    expect(valueOf(text, 'orders{status="pending"}')).toBe(0)
    expect(valueOf(text, 'oldest_waiting_withdrawal_age_seconds')).toBeGreaterThanOrEqual(90)
    expect(valueOf(text, 'oldest_waiting_order_age_seconds')).toBe(0)
    expect(valueOf(text, 'hash_gate{state="waiting"}')).toBe(0)
    expect(valueOf(text, 'db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0)
    expect(text).toContain('# TYPE payout_outcomes_total counter')
    expect(text).toContain('process_cpu_seconds_total')
  })

  it('names no person: ids, e-mails and raw URLs never become labels', async () => {
    const email = 'ngozi.private+metrics@example.com'
    const person = await walletUser(api, { balance: 300_000 })
    await api.post('/auth/login', { email, password: 'not-her-password-1' })
    await api.get(`/admin/user?email=${encodeURIComponent(email)}`)
    await api.get(`/v1/withdraw/detail?id=${person.userId}`, { token: person.token })
    await api.get(`/v1/no-such-call/${person.userId}/${encodeURIComponent(email)}`)
    await api.get(`/avatar/${person.userId}`)
    const text = await scrape()
    for (const secret of [email, encodeURIComponent(email), person.email, person.userId, person.token, 'no-such-call', '?id=']) {
      expect(text, secret).not.toContain(secret)
    }
    expect(text).toContain('route="unmatched"')
  })
})
