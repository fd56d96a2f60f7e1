import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApi, type TestApi } from '../support/api'

/**
 * One request, one id: the api takes the web's X-Request-Id (the web is its trusted proxy,
 * TRUST_PROXY=loopback here), answers it as X-Request-Id and writes it in its log lines. From a
 * caller it does not trust, or malformed, the header is ignored and a new id is made.
 */
let api: TestApi
let stranger: TestApi
beforeAll(async () => {
  api = await startTestApi({ config: { trustProxy: ['loopback'] } })
  stranger = await startTestApi({ config: { trustProxy: [] } })
})
afterAll(async () => {
  await api?.close()
  await stranger?.close()
})

const get = (base: string, id?: string) => fetch(`${base}/healthz`, { headers: id === undefined ? {} : { 'x-request-id': id } })

describe('X-Request-Id', () => {
  it("takes a trusted web's id, answers it and logs it", async () => {
    const id = 'web0c6f1a349d0e4c6b9a532f3f5d8f1c11'
    const res = await get(api.url, id)
    expect(res.headers.get('x-request-id')).toBe(id)
    const line = api.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.requestId === id)
    expect(line).toMatchObject({ path: '/healthz', status: 200 })
  })

  it('makes its own for a request without one, or with a hostile one', async () => {
    for (const hostile of [undefined, 'x'.repeat(5000), 'id with spaces', '../../etc/passwd', 'short', '"><script>']) {
      const res = await get(api.url, hostile)
      const answered = res.headers.get('x-request-id')
      expect(answered).toMatch(/^[0-9a-f-]{36}$/)
      expect(answered).not.toBe(hostile)
    }
  })

  it('ignores the header from a caller that is not a trusted proxy', async () => {
    const res = await get(stranger.url, 'web0c6f1a349d0e4c6b9a532f3f5d8f1c11')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})
