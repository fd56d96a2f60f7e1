import { createRequire } from 'node:module'
import type * as PerfHooks from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as upload from '~/routes/file.upload'
import { createLoadContext } from '../../server/load-context'
import { createWebMetrics, EVENT_LOOP_SAMPLE_MS, routePatterns, type WebMetrics } from '../../server/metrics'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, useSellingApi } from '../support/selling'
import { call, ORIGIN, signedInJar } from '../support/web'
import { startWeb, testBuild, type RunningWeb } from './web-app'

/**
 * The web's own metrics (decision 022): time to answer by route pattern, and every api call's
 * latency and failures by contract path. Labels name routes and outcomes, never a person.
 */
const api = useSellingApi({ web: true })
let metrics: WebMetrics
let web: RunningWeb
beforeAll(async () => {
  metrics = createWebMetrics(testBuild())
  web = await startWeb({ metrics })
})
afterAll(async () => {
  await web?.close()
})

describe('web metrics', () => {
  it('samples the event-loop lag ten times a second, not a hundred: no timer wakes a waiting process every 10 ms', () => {
    // prom-client's own require of the module, so the spy sees its call.
    const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof PerfHooks
    const monitor = vi.spyOn(perfHooks, 'monitorEventLoopDelay')
    try {
      createWebMetrics(testBuild())
      expect(monitor).toHaveBeenCalledWith({ resolution: EVENT_LOOP_SAMPLE_MS })
      expect(EVENT_LOOP_SAMPLE_MS).toBeGreaterThanOrEqual(100)
    } finally {
      monitor.mockRestore()
    }
  })

  it('route patterns come from the build, static before dynamic', () => {
    const patternOf = routePatterns({
      routes: {
        root: { id: 'root', path: '' },
        'routes/wallet.withdraw.$id': { id: 'routes/wallet.withdraw.$id', parentId: 'root', path: 'wallet/withdraw/:id' },
        'routes/wallet.withdraw._index': { id: 'routes/wallet.withdraw._index', parentId: 'root', path: 'wallet/withdraw', index: true },
        'routes/avatar.$id': { id: 'routes/avatar.$id', parentId: 'root', path: 'avatar/:id' },
        'routes/avatar.new': { id: 'routes/avatar.new', parentId: 'root', path: 'avatar/new' },
      } as never,
    })
    expect(patternOf('/wallet/withdraw/0c6f1a34-9d0e-4c6b-9a53-2f3f5d8f1c11')).toBe('/wallet/withdraw/:id')
    expect(patternOf('/wallet/withdraw')).toBe('/wallet/withdraw')
    expect(patternOf('/avatar/new')).toBe('/avatar/new')
    expect(patternOf('/avatar/ada@example.com')).toBe('/avatar/:id')
    expect(patternOf('/nowhere/ada@example.com')).toBe('unmatched')
  })

  it('times pages by route and api calls by contract path, naming no person', async () => {
    const email = newEmail('metrics')
    const { token, user } = await seedUser(api, { email })
    const jar = await signedInJar(token)
    // Each body read to its end: a response is counted when it has been sent.
    const page = (path: string, cookie = '') =>
      fetch(`${web.url}${path}`, { headers: { cookie }, redirect: 'manual' }).then(async (r) => [r.status, await r.text()])
    expect((await page('/account', jar.header()))[0]).toBe(200)
    await page('/account', (await signedInJar('f'.repeat(43))).header())
    await page(`/login?redirectTo=${encodeURIComponent(`/wallet/withdraw/${user.id}`)}&email=${encodeURIComponent(email)}`)
    await page(`/people/${encodeURIComponent(email)}`)

    const text = await metrics.registry.metrics()
    expect(text).toMatch(/web_render_duration_seconds_count\{method="GET",route="\/account",status="200"\} [1-9]/)
    expect(text).toMatch(/web_render_duration_seconds_count\{method="GET",route="\/login",status="200"\} [1-9]/)
    expect(text).toContain('route="unmatched"')
    expect(text).toMatch(/upstream_call_duration_seconds_count\{call="\/v1\/user\/index",outcome="ok"\} [1-9]/)
    expect(text).toMatch(/upstream_call_errors_total\{call="\/v1\/user\/index",kind="expired"\} [1-9]/)
    for (const secret of [email, encodeURIComponent(email), user.id, token, 'redirectTo']) expect(text, secret).not.toContain(secret)
  })

  it('counts photo uploads (multipart to the api) by contract path: success, refusal and an ended session', async () => {
    const own = createWebMetrics(testBuild())
    const { token } = await seedUser(api, { email: newEmail('metrics-upload') })
    const jar = await signedInJar(token)
    const send = async (bytes: Uint8Array, cookie: string) => {
      const body = new FormData()
      body.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'ada@example.com card.jpg')
      const request = new Request(new URL('/file/upload', ORIGIN), { method: 'POST', body, headers: { Cookie: cookie } })
      const context = createLoadContext({ clientAddress: '127.0.0.1', bodyLimit: 12 * 1024 * 1024, observeUpstream: own.upstream })
      return call(upload.action, request, {}, undefined, context)
    }
    const sent = await send(await jpeg(320, 200), jar.header())
    expect(sent.status).toBe(200)
    const { fileId } = await sent.json()
    expect((await send(new TextEncoder().encode('%PDF-1.7 not a photo'), jar.header())).status).toBe(400)
    await send(await jpeg(320, 200), (await signedInJar('f'.repeat(43))).header())

    const text = await own.registry.metrics()
    expect(text).toMatch(/upstream_call_duration_seconds_count\{call="\/v1\/file\/upload",outcome="ok"\} 1\b/)
    expect(text).toMatch(/upstream_call_errors_total\{call="\/v1\/file\/upload",kind="refused"\} 1\b/)
    expect(text).toMatch(/upstream_call_errors_total\{call="\/v1\/file\/upload",kind="expired"\} 1\b/)
    for (const secret of [fileId, token, 'ada@example.com', 'card.jpg']) expect(text, secret).not.toContain(secret)
  })
})
