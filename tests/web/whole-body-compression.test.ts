import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import compression from 'compression'
import express from 'express'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_BROTLI, compressWhole } from '../../server/whole-body-compression'

/**
 * A body held whole is encoded as the `compression` middleware would have encoded it (the same
 * choices), in one call, with its length; the middleware behind it never encodes it twice.
 */
const PAGE = `<!DOCTYPE html><html><body>${'<p>Your money, on its way.</p>'.repeat(200)}</body></html>`

let url = ''
let server: http.Server
beforeAll(async () => {
  const app = express()
  app.use(compression({ brotli: { params: DOCUMENT_BROTLI } }))
  app.all('/whole', (req, res) => {
    res.type(String(req.query.type ?? 'html'))
    if (req.query.cache) res.setHeader('Cache-Control', String(req.query.cache))
    const body = compressWhole(req, res, Buffer.from(req.query.small ? '<p>short</p>' : PAGE))
    res.setHeader('Content-Length', body.length)
    res.end(body)
  })
  app.post('/echo', express.text({ type: '*/*', limit: '1mb' }), (req, res) => {
    res.type('html')
    const body = compressWhole(req, res, Buffer.from(req.body as string))
    res.setHeader('Content-Length', body.length)
    res.end(body)
  })
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** The server's answer to one request, its body as it came over the wire. */
function ask(
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(
        url + path,
        { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'text/plain; charset=utf-8' } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
        },
      )
      .on('error', reject)
      .end(body)
  })
}

const decode = (encoding: string | undefined, body: Buffer) =>
  (encoding === 'br'
    ? brotliDecompressSync(body)
    : encoding === 'gzip'
      ? gunzipSync(body)
      : encoding === 'deflate'
        ? inflateSync(body)
        : body
  ).toString('utf8')

describe('a body sent whole', () => {
  it("takes the encoding the middleware would: brotli first among equals, the client's weights, identity without the header", async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, deflate', 'deflate'],
      ['identity', undefined],
      ['*', 'br'],
      ['compress', undefined],
      [undefined, undefined],
    ]
    for (const [accept, expected] of cases) {
      const res = await ask('/whole', { headers: accept === undefined ? {} : { 'accept-encoding': accept } })
      expect(res.headers['content-encoding'], accept).toBe(expected)
      expect(res.headers['content-length'], accept).toBe(String(res.body.length))
      expect(res.headers['transfer-encoding'], accept).toBeUndefined()
      expect(res.headers.vary, accept).toMatch(/Accept-Encoding/i)
      expect(decode(expected, res.body), accept).toBe(PAGE)
    }
  })

  it('is left as it is when the middleware would leave it: small, HEAD, no-transform, a type that does not compress', async () => {
    const br = { 'accept-encoding': 'br' }
    for (const [path, method] of [
      ['/whole?small=1', 'GET'],
      ['/whole', 'HEAD'],
      ['/whole?cache=no-store%2C%20no-transform', 'GET'],
      ['/whole?type=png', 'GET'],
    ]) {
      const res = await ask(path, { method, headers: br })
      expect(res.headers['content-encoding'], path + method).toBeUndefined()
      if (method === 'GET') expect(res.body.toString('utf8'), path).toMatch(/<p>/)
    }
  })

  it('decodes to the same bytes whatever the body and the accepted encodings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 3000, unit: 'binary' }),
        fc.subarray(['br', 'gzip', 'deflate', 'identity']),
        async (text, accepted) => {
          const res = await ask('/echo', { method: 'POST', body: text, headers: { 'accept-encoding': accepted.join(', ') } })
          const encoding = res.headers['content-encoding']
          expect(res.headers['content-length']).toBe(String(res.body.length))
          expect(decode(encoding, res.body)).toBe(text)
          if (Buffer.byteLength(text) < 1024) expect(encoding).toBeUndefined()
          else expect(encoding).toBe(accepted.find((e) => e === 'br') ?? accepted.find((e) => e !== 'identity'))
        },
      ),
      { numRuns: 60 },
    )
  })
})
