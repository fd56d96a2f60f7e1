import { request as httpRequest } from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Code } from '#contract/envelope'
import { seedUser, startTestApi, type TestApi } from '../support/api'

/** The transport rules every endpoint shares: envelope, 404, 401, and bad bodies that never 500. */

let api: TestApi
beforeAll(async () => {
  api = await startTestApi()
})
afterAll(async () => {
  await api?.close()
})

/** A request exactly as given (fetch would fix up some headers for us). */
function raw(method: string, path: string, headers: Record<string, string | number>, body?: string | Buffer) {
  return new Promise<{ status: number; body: { code: number; msg: string; data: unknown }; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const url = new URL(api.url + path)
      const req = httpRequest({ method, host: url.hostname, port: url.port, path, headers }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }))
      })
      req.on('error', reject)
      req.end(body)
    },
  )
}

describe('envelope and headers', () => {
  test('health check answers the success envelope with the database state', async () => {
    const res = await api.get('/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: Code.OK, msg: 'success', data: { db: 'ok' } })
  })

  test('answers are JSON, never cached, and do not name the framework', async () => {
    const res = await api.get('/healthz')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-powered-by')).toBeNull()
  })

  test("security headers are an api's (OWASP REST), not a browser page's: the web parses each one on every call", async () => {
    const res = await api.get('/healthz')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    const pageOnly = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options']
    expect(pageOnly.filter((name) => res.headers.has(name))).toEqual([])
    // X-Request-Id is the eleventh: one id per request in both processes' logs (README, Operations).
    expect([...res.headers.keys()].length).toBeLessThanOrEqual(11)
  })

  test('GETs accept the _t cache buster and other query parameters', async () => {
    const { token } = await seedUser(api, { email: 'query@example.com' })
    const res = await api.get('/v1/user/index?_t=123&_t=456&x[y]=1', { token })
    expect(res.body.code).toBe(Code.OK)
  })
})

describe('unknown paths', () => {
  test.each([
    ['GET', '/nope'],
    ['POST', '/nope'],
    ['GET', '/auth/login'],
    ['POST', '/v1/user/index'],
    ['DELETE', '/auth/logout'],
    ['GET', '/auth/%E0%A4%A'],
  ])('%s %s answers the HTTP 404 envelope', async (method, path) => {
    const res = await raw(method, path, { 'content-type': 'application/json' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: Code.NOT_FOUND, msg: 'API endpoint not found', data: null })
  })
})

describe('missing or dead token', () => {
  test.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['a token we never issued', 'x'.repeat(43)],
    ['a very long token', 'y'.repeat(10_000)],
  ])('%s on a signed-in call answers HTTP 401, code 401', async (_label, token) => {
    const res = await api.get('/v1/user/index', { token })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: Code.UNAUTHORIZED, msg: 'Login expired, please login again', data: null })
  })

  test('setInfo without a token is 401 even with a bad body', async () => {
    const res = await api.post('/v1/user/setInfo', { nope: true })
    expect(res.status).toBe(401)
  })
})

describe('bad bodies answer 400 (or 413), never 500', () => {
  const json = { 'content-type': 'application/json' }

  test('malformed JSON', async () => {
    const res = await raw('POST', '/auth/login', json, '{"email": "a@b.c", ')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: Code.BAD_REQUEST, msg: 'body: Malformed JSON', data: null })
  })

  test.each(['"just a string"', '42', 'null', 'true'])('a JSON %s instead of an object', async (body) => {
    const res = await raw('POST', '/auth/login', json, body)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe(Code.BAD_REQUEST)
  })

  test('a JSON array instead of an object', async () => {
    const res = await raw('POST', '/auth/login', json, '[1,2]')
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('body: Expected object, received array')
  })

  test.each([
    ['text/plain', 'email=a@b.c'],
    ['application/x-www-form-urlencoded', 'email=a%40b.c&password=12345678'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ])('content type %s', async (type, body) => {
    const res = await raw('POST', '/auth/login', { 'content-type': type }, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: Code.BAD_REQUEST, msg: 'body: Send JSON (Content-Type: application/json)', data: null })
  })

  test('a body without any content type', async () => {
    const res = await raw('POST', '/auth/login', { 'content-length': 2 }, '{}')
    expect(res.status).toBe(400)
  })

  test('a charset other than UTF-8', async () => {
    const res = await raw('POST', '/auth/login', { 'content-type': 'application/json; charset=latin1' }, '{}')
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('body: Send JSON encoded as UTF-8')
  })

  test('an unknown or broken content encoding', async () => {
    const br = await raw('POST', '/auth/login', { ...json, 'content-encoding': 'br' }, 'xxxx')
    expect(br.status).toBe(400)
    const badGzip = await raw('POST', '/auth/login', { ...json, 'content-encoding': 'gzip' }, 'not gzip at all')
    expect(badGzip.status).toBe(400)
  })

  test('a gzipped JSON body is read', async () => {
    const body = gzipSync(JSON.stringify({ email: 'not-an-email', password: 'x' }))
    const res = await raw('POST', '/auth/login', { ...json, 'content-encoding': 'gzip' }, body)
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('email: Enter a valid e-mail address')
  })

  test('a body over 64 kB answers 413', async () => {
    const big = JSON.stringify({ email: 'a@b.co', password: 'p'.repeat(70_000) })
    const res = await raw('POST', '/auth/login', json, big)
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ code: Code.PAYLOAD_TOO_LARGE, msg: 'body: Request body is too large', data: null })
  })

  test('a gzip bomb is cut at 64 kB of JSON', async () => {
    const body = gzipSync(JSON.stringify({ email: 'a@b.co', password: ' '.repeat(5_000_000) }))
    const res = await raw('POST', '/auth/login', { ...json, 'content-encoding': 'gzip' }, body)
    expect(res.status).toBe(413)
  })

  test('a chunked body is read like any other', async () => {
    const res = await raw('POST', '/auth/login', { ...json, 'transfer-encoding': 'chunked' }, '{"email":"x"}')
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('email: Enter a valid e-mail address')
  })
})

describe('validation names the field', () => {
  test.each([
    [{}, 'email: E-mail is required'],
    [{ email: '', password: 'x' }, 'email: E-mail is required'],
    [{ email: 'nope', password: 'x' }, 'email: Enter a valid e-mail address'],
    [{ email: 5, password: 'x' }, 'email: E-mail must be text'],
    [{ email: 'a@b.co' }, 'password: Password is required'],
    [{ email: 'a@b.co', password: ['x'] }, 'password: Password must be text'],
    [{ email: 'a@b.co', password: '' }, 'password: Password is required'],
    [{ email: 'a@b.co', password: 'x', remember: true }, 'remember: Unknown field'],
    [JSON.parse('{"email":"a@b.co","password":"x","__proto__":{"admin":true}}'), '__proto__: Unknown field'],
  ])('login %j → %s', async (body, message) => {
    const res = await api.post('/auth/login', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: Code.BAD_REQUEST, msg: message, data: null })
  })

  test('an empty POST body counts as {}', async () => {
    const res = await raw('POST', '/auth/login', { 'content-type': 'application/json', 'content-length': 0 })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('email: E-mail is required')
  })

  test('the code type must be 1 to 5', async () => {
    for (const type of [0, 6, 1.5, 'abc']) {
      const res = await api.post('/auth/sendEmailCode', { email: 'a@b.co', type })
      expect(res.status, String(type)).toBe(400)
      expect(res.body.msg).toMatch(/^type: /)
    }
  })

  test('verification codes are six digits', async () => {
    for (const verifyCode of ['12345', '1234567', 'abcdef', 123456]) {
      const res = await api.post('/auth/loginByCode', { email: 'a@b.co', verifyCode })
      expect(res.status, String(verifyCode)).toBe(400)
      expect(res.body.msg).toMatch(/^verifyCode: /)
    }
  })

  test('logout takes no fields', async () => {
    const res = await api.post('/auth/logout', { token: 'abc' })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('token: Unknown field')
  })
})
