import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedUser } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { signedInJar } from '../support/web'
import { startWeb, type RunningWeb } from './web-app'

/**
 * One request, one id: the web makes it (or takes a trusted proxy's X-Request-Id), answers it as
 * X-Request-Id and hands it to the api, whose log lines for that request carry it.
 */
const api = useTestApi()
let web: RunningWeb
let behindProxy: RunningWeb
beforeAll(async () => {
  web = await startWeb()
  process.env.TRUST_PROXY = 'loopback'
  behindProxy = await startWeb()
  delete process.env.TRUST_PROXY
})
afterAll(async () => {
  await web?.close()
  await behindProxy?.close()
})

const PROXY_ID = 'edge7d1f0c2b9a8e4f6a8d3c5b7e9f1a2c4d'

describe('request id', () => {
  it('is made here, answered, and sent to the api with every call', async () => {
    const { token } = await seedUser(api, { email: newEmail('rid') })
    const res = await fetch(`${web.url}/account`, { headers: { cookie: (await signedInJar(token)).header(), 'x-request-id': PROXY_ID } })
    await res.text()
    const id = res.headers.get('x-request-id')!
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const lines = api.logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === id)
    expect(lines.map((l) => l.path)).toContain('/v1/user/index')
  })

  it("takes a trusted proxy's id, and never a hostile one", async () => {
    const trusted = await fetch(`${behindProxy.url}/healthz`, { headers: { 'x-request-id': PROXY_ID } })
    expect(trusted.headers.get('x-request-id')).toBe(PROXY_ID)
    for (const hostile of ['y'.repeat(4096), 'a b c d e f g h', '<script>alert(1)</script>']) {
      const res = await fetch(`${behindProxy.url}/healthz`, { headers: { 'x-request-id': hostile } })
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})
