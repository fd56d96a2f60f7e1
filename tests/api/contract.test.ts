import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Express } from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allEndpoints } from '#contract/index'
import { formatRefusal, Refusals } from '#contract/refusals'
import { startTestApi, type TestApi } from '../support/api'

/**
 * Calls the api answers that are not product calls: the health and readiness checks (for load
 * balancers and orchestrators, no envelope promised to our client), and the payout provider's
 * webhook (/metrics is not among them: it has a listener of its own, decision 022), which speaks the provider's wire format (raw bytes signed with HMAC, no envelope, no
 * token) and is called by the provider through the web, never by our own client.
 */
const OUTSIDE_CONTRACT = [/^GET \/healthz$/, /^GET \/readyz$/, /^POST \/v1\/webhooks\/paystack$/]

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } }

/** Every `METHOD /path` an Express app answers, read from its router stack. */
function mountedRoutes(app: Express): string[] {
  const out: string[] = []
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) out.push(`${method.toUpperCase()} ${layer.route.path}`)
      } else if (layer.handle?.stack) walk(layer.handle.stack)
    }
  }
  walk((app as unknown as { _router: { stack: Layer[] } })._router.stack)
  return out
}

let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
})
afterAll(async () => {
  await api?.close()
})

describe('contract/ binds every call once', () => {
  it('every contract record has its api route, and the api has no route outside the contract', () => {
    const contract = allEndpoints.map((e) => `${e.method} ${e.path}`)
    expect(new Set(contract).size, 'a call is bound twice in contract/').toBe(contract.length)
    const mounted = mountedRoutes(api.app)
    expect(new Set(mounted).size, 'a route is mounted twice').toBe(mounted.length)
    for (const call of contract) expect(mounted, `${call} is in the contract but the api does not answer it`).toContain(call)
    const extra = mounted.filter((r) => !contract.includes(r) && !OUTSIDE_CONTRACT.some((re) => re.test(r)))
    expect(extra, 'api routes outside the contract').toEqual([])
  })

  it('answers the shape its record promises', async () => {
    const { profileApi } = await import('#contract/profile')
    const { seedUser } = await import('../support/api')
    const { token } = await seedUser(api, { email: 'shape@example.com' })
    const res = await api.get('/v1/user/index', { token })
    expect(profileApi.index.data.safeParse(res.body.data).success).toBe(true)
  })

  it('refuses a body field the record does not know', async () => {
    const { seedUser } = await import('../support/api')
    const { token } = await seedUser(api, { email: 'query@example.com' })
    const res = await api.post('/v1/user/setInfo', { userName: 'Ada', isAdmin: true }, { token })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('isAdmin: Unknown field')
  })
})

/** Every `METHOD /path` a `###` heading of docs/api.md names (a query string after `?` dropped). */
function documentedCalls(doc: string): string[] {
  const headings = doc.split('\n').filter((line) => line.startsWith('### '))
  return headings.flatMap((h) => [...h.matchAll(/\b(GET|POST) (\/[^\s?,|)]+)/g)].map((m) => `${m[1]} ${m[2]}`))
}

describe('docs/api.md documents the contract', () => {
  const doc = readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8')
  const documented = documentedCalls(doc)
  const contract = allEndpoints.map((e) => `${e.method} ${e.path}`)

  it('every contract record has a section', () => {
    expect(contract.filter((call) => !documented.includes(call))).toEqual([])
  })

  it('every section names a call the api answers', () => {
    const answered = (call: string) => contract.includes(call) || OUTSIDE_CONTRACT.some((re) => re.test(call))
    expect(documented.filter((call) => !answered(call))).toEqual([])
  })
})

describe('business refusals are one record each', () => {
  it('codes are unique 4xxx numbers', () => {
    const codes = Object.values(Refusals).map((r) => r.code)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(code).toBeGreaterThanOrEqual(4000)
  })

  it('docs/api.md lists exactly the refusals of contract/refusals.ts, word for word', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8')
    const rows = [...doc.matchAll(/^\| (4\d{3}) \| ([A-Z_]+) \| (.+?) \|$/gm)].map((m) => [Number(m[1]), m[2], m[3]])
    const expected = Object.entries(Refusals).map(([name, r]) => [r.code, name, r.msg])
    expect(rows).toEqual(expected)
  })

  it('formatRefusal fills each placeholder and leaves a fixed sentence as it is', () => {
    expect(formatRefusal(Refusals.BELOW_MINIMUM, { min: '₦1,000.00' })).toBe('The smallest withdrawal is ₦1,000.00')
    expect(formatRefusal(Refusals.DELETE_BALANCE_TOO_SMALL, { balance: '₦5.00', min: '₦1,000.00' })).toBe(
      'Your ₦5.00 balance is less than the smallest withdrawal (₦1,000.00), so it cannot be withdrawn. Contact support to close your account',
    )
    expect(formatRefusal(Refusals.BAD_CREDENTIALS)).toBe('Incorrect e-mail or password')
  })

  it('no refusal sentence is typed again in app/, api/ or server/: they call formatRefusal', () => {
    const root = path.resolve(__dirname, '../..')
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name)
        return e.isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : []
      })
    const texts = ['app', 'api', 'server']
      .flatMap((d) => sources(path.join(root, d)))
      .map((f) => [path.relative(root, f), readFileSync(f, 'utf8')])
    // Each fixed stretch of a sentence between its placeholders, long enough to be the refusal's own words.
    const fixed = Object.entries(Refusals).flatMap(([name, r]) =>
      r.msg
        .split(/\{\w+\}/)
        .map((part) => part.trim())
        .filter((part) => part.length >= 16)
        .map((part) => [name, part]),
    )
    const retyped = fixed.flatMap(([name, part]) =>
      texts.filter(([, text]) => text.includes(part)).map(([file]) => `${name} in ${file}: ${part}`),
    )
    expect(retyped).toEqual([])
  })
})
