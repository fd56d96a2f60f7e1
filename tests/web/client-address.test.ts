import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { normalizeAddress, parseTrustProxy } from '../../server/client-address'
import { readServerEnv } from '../../server/env'
import { startTestApi, type TestApi } from '../support/api'
import { startFaultUpstream } from '../support/fault-upstream'
import { singleFetchValue } from '../support/web'
import { startWeb, type RunningWeb } from './web-app'

/**
 * The visitor's address, which the api counts its limits by, is decided by the web from the
 * socket and, only for connections from a proxy named in TRUST_PROXY, from X-Forwarded-For.
 * `TRUST_PROXY=true` (or a hop count on a port reachable without the proxy) let any client pick
 * its address: 130 auth calls from one client, never limited.
 */
const env = process.env as Record<string, string | undefined>
const saved = { ...env }
function restoreEnv() {
  for (const key of ['TRUST_PROXY', 'NODE_ENV', 'SESSION_SECRET', 'API_BASE_URL']) {
    if (saved[key] === undefined) delete env[key]
    else env[key] = saved[key]
  }
}

describe('TRUST_PROXY', () => {
  afterEach(restoreEnv)
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['loopback', ['loopback']],
    ['10.0.0.7, 10.0.0.0/8, fd00::/8, uniquelocal', ['10.0.0.7', '10.0.0.0/8', 'fd00::/8', 'uniquelocal']],
  ])('%j names the proxies: %j', (raw, value) => {
    expect(parseTrustProxy(raw)).toEqual({ value, unsafe: null })
  })

  it.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', 'fd00::/129', 'all'])('%j is not a proxy address: refused at start', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(/TRUST_PROXY/)
  })

  it('true or a hop count stop the web from starting in production, with the safe setting named', () => {
    env.NODE_ENV = 'production'
    process.env.SESSION_SECRET = 's'.repeat(40)
    for (const value of ['true', '1', '2']) {
      process.env.TRUST_PROXY = value
      expect(() => readServerEnv(), value).toThrow(/Name the proxies instead, e\.g\. TRUST_PROXY=10\.0\.0\.0\/8/)
    }
    process.env.TRUST_PROXY = '10.0.0.0/8'
    expect(readServerEnv().trustProxy.value).toEqual(['10.0.0.0/8'])
  })

  it('an IPv4 visitor on a dual-stack socket has one spelling', () => {
    expect(normalizeAddress('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8::1')
    expect(normalizeAddress(undefined)).toBe('')
  })
})

describe('the address the api is told', () => {
  afterEach(restoreEnv)
  let upstream: Awaited<ReturnType<typeof startFaultUpstream>>
  beforeAll(async () => {
    upstream = await startFaultUpstream()
  })
  afterAll(async () => {
    await upstream?.close()
  })

  async function forwardedFor(trustProxy: string | undefined, headers: Record<string, string>) {
    process.env.API_BASE_URL = upstream.url
    if (trustProxy === undefined) delete process.env.TRUST_PROXY
    else process.env.TRUST_PROXY = trustProxy
    upstream.set({ kind: 'json', status: 200, body: { code: 400, msg: 'Incorrect e-mail or password', data: null } })
    const web = await startWeb()
    try {
      upstream.seen.length = 0
      const res = await fetch(`${web.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ intent: 'password', email: 'someone@example.com', password: 'whatever it is' }),
      })
      expect(res.status).toBe(400)
      return upstream.seen.map((s) => s.headers['x-forwarded-for'])
    } finally {
      await web.close()
    }
  }

  const spoof = { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9', 'X-Cardlane-Client-Ip': '192.0.2.77' }

  it('no proxy named: the socket address, whatever the client claims', async () => {
    expect(await forwardedFor(undefined, spoof)).toEqual(['127.0.0.1'])
  })

  it('a proxy named that is not the caller: its X-Forwarded-For is ignored', async () => {
    expect(await forwardedFor('10.0.0.0/8', spoof)).toEqual(['127.0.0.1'])
  })

  it('the named proxy (here: this machine) is believed for the hop it added, not for what the client wrote before it', async () => {
    expect(await forwardedFor('loopback', spoof)).toEqual(['203.0.113.9'])
  })
})

describe('one client behind the web is one client at the api', () => {
  let api: TestApi
  let web: RunningWeb
  beforeAll(async () => {
    // The api believes the web on this machine, as under `npm start`; a small limit keeps it quick.
    api = await startTestApi({ config: { trustProxy: ['loopback'], authRateLimit: 5 } })
    process.env.API_BASE_URL = api.url
    delete process.env.TRUST_PROXY
    web = await startWeb()
  })
  afterAll(async () => {
    await web?.close()
    await api?.close()
    restoreEnv()
  })

  it('rotating X-Forwarded-For does not escape the limit: refused after 5 calls', async () => {
    const messages: string[] = []
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${web.url}/login.data`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': `198.51.100.${i + 1}` },
        body: new URLSearchParams({ intent: 'password', email: `nobody.${i}@example.com`, password: 'not a real password' }),
      })
      messages.push((await singleFetchValue(res.body)).data.result.error[''][0])
    }
    // Five wrong passwords are answered as such; then the api's per-address limit answers instead.
    expect(new Set(messages.slice(0, 5))).toEqual(new Set(['Incorrect e-mail or password']))
    // The lockout says how long it lasts (the api's Retry-After), never a busy moment.
    for (const message of messages.slice(5)) expect(message).toMatch(/^Too many attempts\. Please wait \d+ minutes?, then try again\.$/)
  })
})
