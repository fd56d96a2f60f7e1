import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { accessMessages } from '~/utils/messages'
import { remixHandler } from '../../server/adapter'
import { cspNonce } from '../../server/headers'
import { createLoadContext } from '../../server/load-context'
import { serverMessages } from '../../server/messages'
import { DOCUMENT_BROTLI } from '../../server/whole-body-compression'
import { seedUser } from '../support/api'
import { useTestApi } from '../support/kit'
import { signedInJar, singleFetchValue } from '../support/web'
import { releaseSecondPart, startWeb, testBuild, type RunningWeb } from './web-app'

/**
 * What the web process (server/) adds around Remix, over real HTTP: the byte limit on bodies as
 * they arrive, Cache-Control for personal pages, compression, the URL behind a proxy, and the load
 * context every loader is handed.
 */
const api = useTestApi()
let web: RunningWeb
beforeAll(async () => {
  web = await startWeb()
})
afterAll(async () => {
  await web?.close()
})

type Sent = { status: number; body: string; sentBytes: number }

/** Streams `total` bytes as a chunked body (no Content-Length) until the server answers. */
function postChunked(url: string, total: number, chunk = Buffer.alloc(64 * 1024, 'a')): Promise<Sent> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
    })
    let sentBytes = 0
    let answered = false
    req.on('response', (res) => {
      answered = true
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, sentBytes })
        req.destroy()
      })
    })
    // The server closes the connection after a refusal: writes after that fail, as they should.
    req.on('error', () => answered || resolve({ status: 0, body: '', sentBytes }))
    const pump = () => {
      while (!answered && sentBytes < total) {
        sentBytes += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    pump()
  })
}

describe('the CSP nonce', () => {
  it('is 16 fresh random bytes for every response, across refills of its pool', async () => {
    const nonces = Array.from({ length: 600 }, cspNonce)
    expect(new Set(nonces).size).toBe(600)
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
    const page = await fetch(`${web.url}/login`)
    const sent = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1]
    expect(sent && (await page.text()).includes(`nonce="${sent}"`)).toBe(true)
  })
})

describe('fingerprinted assets', () => {
  // node:http, not fetch: fetch asks for encodings of its own and decodes what arrives.
  const get = (file: string, acceptEncoding: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}
      http
        .get(`${web.url}/assets/${file}`, { headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
        })
        .on('error', reject)
    })
  const original = (file: string) => readFileSync(path.join(web.assetsDir, file))

  it('go out as the brotli copy the build wrote when brotli is accepted, cached for good', async () => {
    const res = await get('entry.client-TEST.js', 'gzip, deflate, br')
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const sent = res.body
    // The build's copy byte for byte: nothing compressed it again on the way.
    expect(sent.equals(readFileSync(path.join(web.assetsDir, 'entry.client-TEST.js.br')))).toBe(true)
    expect(brotliDecompressSync(sent).equals(original('entry.client-TEST.js'))).toBe(true)
  })

  it("carry no page's policies (a first visit loads some twenty), only what a script needs: no sniffing, same origin only", async () => {
    const res = await get('entry.client-TEST.js', 'gzip, deflate, br')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
    for (const page of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy']) {
      expect(res.headers[page], page).toBeUndefined()
    }
    // Nor what an immutable file never uses: validators, ranges, a request id no log line names.
    for (const unused of ['etag', 'last-modified', 'accept-ranges', 'x-request-id']) expect(res.headers[unused], unused).toBeUndefined()
    const document = await fetch(`${web.url}/login`)
    expect(document.headers.get('x-request-id')).toBeTruthy()
    expect(document.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(document.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('go out as the gzip copy when only gzip is accepted', async () => {
    const res = await get('nested/tailwind-TEST.css', 'gzip')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['content-type']).toBe('text/css; charset=UTF-8')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const sent = res.body
    expect(sent.equals(readFileSync(path.join(web.assetsDir, 'nested', 'tailwind-TEST.css.gz')))).toBe(true)
    expect(gunzipSync(sent).equals(original('nested/tailwind-TEST.css'))).toBe(true)
  })

  it('go out as they are to a client that accepts no encoding', async () => {
    for (const acceptEncoding of ['identity', '']) {
      const res = await get('entry.client-TEST.js', acceptEncoding)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/)
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.body.equals(original('entry.client-TEST.js'))).toBe(true)
    }
  })
})

describe('the Remix handler hands every header on', () => {
  it("both cookies, express's charset, a header of the page and one our middleware set too (as res.append would)", async () => {
    const res = await fetch(`${web.url}/test/headers`)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual(['first=1; Path=/; HttpOnly', 'second=2; Path=/; HttpOnly'])
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-test')).toBe('kept')
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN, SAMEORIGIN')
    expect(await res.json()).toEqual({ ok: true })
  })
})

describe("a request's life ends with its answer (decision 071)", () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

  it('leaves no timer behind a page it has answered: fifty pages later the process holds about the timers it held', async () => {
    const { token } = await seedUser(api, { email: `timers.${Date.now()}@example.com`, password: null })
    const cookie = (await signedInJar(token)).header()
    const page = async (path: string) => {
      const res = await fetch(`${web.url}${path}`, { headers: { cookie } })
      expect(res.status, path).toBe(200)
      await res.text()
    }
    await page('/')
    const before = timers()
    for (let i = 0; i < 25; i++) {
      await page('/')
      await page('/account')
    }
    // Remix's single-fetch encoder holds a timer of `streamTimeout` per page (with the page's data)
    // that only the request's signal clears: one per page here without the adapter's abort.
    expect(timers() - before).toBeLessThan(10)
  })
})

describe('request bodies are limited by the bytes that arrive', () => {
  it('a 100 MB chunked POST without Content-Length is refused at 256 kB: 413, read no further, memory flat', async () => {
    const rssBefore = process.memoryUsage().rss
    const res = await postChunked(`${web.url}/login`, 100 * 1024 * 1024)
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20
    expect(res.status).toBe(413)
    expect(res.body).toBe('That was more than this form can take. Please try again with less.')
    // What left the client before the refusal: the limit plus socket buffers, not the 100 MB.
    expect(res.sentBytes).toBeLessThan(16 * 1024 * 1024)
    expect(rssGrowthMb).toBeLessThan(64)
  })

  it('a declared Content-Length over the limit is refused before a byte is read', async () => {
    const res = await fetch(`${web.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${'a'.repeat(300 * 1024)}`,
    })
    expect(res.status).toBe(413)
  })

  it('a small chunked form is read as usual (field messages, not a refusal)', async () => {
    // As a browser with JavaScript posts it: single fetch, to the page's `.data`.
    const res = await postChunked(`${web.url}/login.data`, 1, Buffer.from('intent=password&email=not-an-address&password='))
    expect(res.status).toBe(400)
    expect((await singleFetchValue(res.body)).data.result.error).toBeTruthy()
  })
})

describe('personal responses are never stored', () => {
  it('a signed-in document and its data are no-store; a visitor page and a fingerprinted asset keep their caching', async () => {
    const { token } = await seedUser(api, { email: `cache.${Date.now()}@example.com`, password: null })
    const cookie = (await signedInJar(token)).header()

    const page = await fetch(`${web.url}/account`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('cache.')
    expect(page.headers.get('cache-control')).toBe('no-store')

    const data = await fetch(`${web.url}/account.data`, { headers: { cookie } })
    expect(data.status).toBe(200)
    expect(data.headers.get('cache-control')).toBe('no-store')

    const visitor = await fetch(`${web.url}/user/privacy`)
    expect(visitor.status).toBe(200)
    expect(visitor.headers.get('cache-control')).toBeNull()

    const asset = await fetch(`${web.url}/assets/entry.client-TEST.js`, { headers: { cookie } })
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('a response that sets the session cookie is no-store, even for a visitor', async () => {
    const { user } = await seedUser(api, { email: `cache.login.${Date.now()}@example.com`, password: 'a fine passphrase 42' })
    const res = await fetch(`${web.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'password', email: user.email, password: 'a fine passphrase 42' }),
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    expect(res.headers.getSetCookie().length).toBeGreaterThan(0)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})

describe('compression', () => {
  it("a page asked with a browser's gzip, deflate, br comes in brotli, with gzip for a client without it, plain for one with neither", async () => {
    const br = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/Accept-Encoding/i)
    expect(brotliDecompressSync(br.body).toString('utf8')).toContain('</html>')
    const gzip = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).toString('utf8')).toContain('</html>')
    const none = await fetchRaw(`${web.url}/user/privacy`, {})
    expect(none.headers['content-encoding']).toBeUndefined()
    expect(none.body.toString('utf8')).toContain('</html>')
  })

  it("a page's brotli stream keeps a window of at most 256 kB (RFC 7932's WBITS in the stream header), not the encoder's 4 MB", async () => {
    const br = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': 'br' })
    expect(br.headers['content-encoding']).toBe('br')
    // The header's first bits, lowest first: 0 is a 64 kB window; else 3 bits n, n > 0 is 2^(17+n).
    const first = br.body[0]
    const windowBits = (first & 1) === 0 ? 16 : ((first >> 1) & 7) > 0 ? 17 + ((first >> 1) & 7) : undefined
    expect(windowBits).toBeDefined()
    expect(windowBits).toBeLessThanOrEqual(18)
  })

  it('a page goes out in one write (decision 033): its length declared, not sent in chunks, compressed whole', async () => {
    const plain = await fetchRaw(`${web.url}/user/privacy`, {})
    expect(plain.body.toString('utf8')).toContain('</html>')
    expect(plain.headers['transfer-encoding']).toBeUndefined()
    expect(plain.headers['content-length']).toBe(String(plain.body.length))
    // One brotli stream of the whole page, no flushed block per piece React wrote: as small as the page compressed at once.
    const br = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': 'br' })
    const page = brotliDecompressSync(br.body)
    expect(page.toString('utf8')).toContain('</html>')
    const once = brotliCompressSync(page, { params: DOCUMENT_BROTLI })
    expect(br.body.length).toBeLessThanOrEqual(once.length + 16)
  })

  it('a compressed page declares its length and goes out unchunked: encoded in one call, not through a compression stream (decision 070)', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': encoding })
      expect(res.headers['content-encoding'], encoding).toBe(encoding)
      expect(res.headers['transfer-encoding'], encoding).toBeUndefined()
      expect(res.headers['content-length'], encoding).toBe(String(res.body.length))
      const page = encoding === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body)
      expect(page.toString('utf8'), encoding).toContain('</html>')
    }
  })

  it("a page is compressed at the documents' brotli quality, not the middleware's default (a page is compressed on every request)", async () => {
    const br = await fetchRaw(`${web.url}/user/privacy`, { 'accept-encoding': 'br' })
    const page = brotliDecompressSync(br.body)
    const at = (quality: number) =>
      brotliCompressSync(page, { params: { ...DOCUMENT_BROTLI, [zlibConstants.BROTLI_PARAM_QUALITY]: quality } }).length
    expect(DOCUMENT_BROTLI[zlibConstants.BROTLI_PARAM_QUALITY]).toBe(2)
    expect(Math.abs(br.body.length - at(2))).toBeLessThanOrEqual(16)
    expect(at(4)).toBeLessThan(br.body.length - 16)
  })

  it('a body that pauses (deferred data) still streams: the first part reaches the client before the rest is made', async () => {
    for (const encoding of ['gzip', 'identity']) {
      let text = ''
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${web.url}/test/slow-stream`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const stream = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res
            stream.on('data', (c: Buffer) => {
              text += c.toString('utf8')
              if (text.includes('first part')) releaseSecondPart()
            })
            stream.on('end', resolve)
          })
          .on('error', reject)
      })
      expect(text, encoding).toMatch(/^first part \.+\nsecond part\n$/)
    }
  })
})

describe('one api call per page', () => {
  const count = (path: string) => api.logs.filter((l) => JSON.parse(l).path === path).length

  it('signed-in Home and Account make one /v1/user/index call between the root and their loaders, and no other', async () => {
    const { token } = await seedUser(api, { email: `onecall.${Date.now()}@example.com`, password: null })
    const cookie = (await signedInJar(token)).header()
    for (const page of ['/', '/account']) {
      const index = count('/v1/user/index')
      const wallet = count('/v1/wallet/info')
      const res = await fetch(`${web.url}${page}`, { headers: { cookie } })
      expect(res.status, page).toBe(200)
      await res.text()
      expect(count('/v1/user/index') - index, page).toBe(1)
      expect(count('/v1/wallet/info') - wallet, page).toBe(0)
    }
  })

  it('a client cannot choose the request id that shares answers between loaders', async () => {
    const a = await seedUser(api, { email: `memo.a.${Date.now()}@example.com`, password: null })
    const b = await seedUser(api, { email: `memo.b.${Date.now()}@example.com`, password: null })
    const forged = { 'x-cardlane-request-id': 'chosen-by-the-client' }
    const [pageA, pageB] = await Promise.all(
      [a, b].map(async (u) =>
        (await fetch(`${web.url}/account`, { headers: { ...forged, cookie: (await signedInJar(u.token)).header() } })).text(),
      ),
    )
    expect(pageA).toContain('memo.a.')
    expect(pageA).not.toContain('memo.b.')
    expect(pageB).toContain('memo.b.')
  })
})

describe('the load context', () => {
  it("carries this response's CSP nonce, the visitor's address, a request id and an empty memo of its own, and no header does", async () => {
    const seen = await Promise.all([1, 2].map(() => fetch(`${web.url}/test/context`, { headers: { 'x-cardlane-request-id': 'chosen' } })))
    const [a, b] = await Promise.all(
      seen.map(async (res) => ({ csp: res.headers.get('content-security-policy') ?? '', body: await res.json() })),
    )
    expect(a.csp).toContain(`'nonce-${a.body.context.cspNonce}'`)
    expect(a.body.context.cspNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(a.body.context.clientAddress).toBe('127.0.0.1')
    expect(a.body.context.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.body.context.requestId).not.toBe(b.body.context.requestId)
    expect(a.body.context.memo).toBe(true)
    // A form's route: the 256 kB a plain form may have.
    expect(a.body.context.bodyLimit).toBe(256 * 1024)
    // Nothing of it travels as a header the loaders could be fooled by.
    expect(a.body.headers.filter((h: string) => h.startsWith('x-cardlane'))).toEqual(['x-cardlane-request-id'])
  })

  it('an asynchronous getLoadContext is awaited before the loaders run', async () => {
    const app = express()
    app.all(
      '*',
      remixHandler({
        build: testBuild(),
        getLoadContext: async () => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          return createLoadContext({ clientAddress: '192.0.2.9', requestId: 'awaited' })
        },
        refuse: (res, status) => res.status(status).end(),
      }),
    )
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/test/context`)
      expect((await res.json()).context).toMatchObject({ clientAddress: '192.0.2.9', requestId: 'awaited' })
    } finally {
      server.close()
    }
  })
})

describe('the URL behind a proxy follows TRUST_PROXY', () => {
  const forwarded = { 'x-forwarded-host': 'shop.example:8443', 'x-forwarded-proto': 'https' }
  let proxied: RunningWeb | undefined
  afterEach(async () => {
    await proxied?.close()
    proxied = undefined
    delete process.env.TRUST_PROXY
  })
  async function urlSeen(trustProxy: string | undefined, headers: Record<string, string>) {
    if (trustProxy === undefined) delete process.env.TRUST_PROXY
    else process.env.TRUST_PROXY = trustProxy
    proxied = await startWeb()
    const res = await fetch(`${proxied.url}/test/context`, { headers })
    return { status: res.status, url: res.status === 200 ? ((await res.json()) as { url: string }).url : null }
  }

  it('no proxy named: the forwarded host, port and scheme a client sends are ignored', async () => {
    const { url } = await urlSeen(undefined, forwarded)
    expect(url).toBe(`${proxied!.url}/test/context`)
  })

  it('a proxy named that is not the caller: ignored alike', async () => {
    const { url } = await urlSeen('10.0.0.0/8', forwarded)
    expect(url).toBe(`${proxied!.url}/test/context`)
  })

  it('the named proxy (this machine): its host with its port, and its scheme', async () => {
    expect((await urlSeen('loopback', forwarded)).url).toBe('https://shop.example:8443/test/context')
    await proxied?.close()
    // Several hops: the first host is the one the visitor asked for.
    expect((await urlSeen('loopback', { 'x-forwarded-host': 'shop.example, inner.local:3000' })).url).toBe(
      'http://shop.example/test/context',
    )
  })

  it('a host that is not a host is a 400, not a URL of its choosing', async () => {
    expect((await urlSeen('loopback', { 'x-forwarded-host': 'evil.example/path?x=' })).status).toBe(400)
  })

  it("the cross-site guard compares a form's Origin with the forwarded host", async () => {
    process.env.TRUST_PROXY = 'loopback'
    proxied = await startWeb()
    const post = (origin: string) =>
      fetch(`${proxied!.url}/test/context`, {
        method: 'POST',
        headers: { ...forwarded, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=1',
      })
    expect((await post('https://shop.example:8443')).status).toBe(200)
    const refused = await post('https://evil.example')
    expect(refused.status).toBe(403)
    expect(await refused.text()).toBe(serverMessages.crossSite)
  })
})

describe('what the process answers itself', () => {
  it('says "too large" in the app\'s own words', () => {
    expect(serverMessages.tooLarge).toBe(accessMessages.tooLarge)
  })
})

describe('a refused form is a page that says why', () => {
  it('an oversized form posted without JavaScript gets the error screen with its sentence, not "something went wrong"', async () => {
    const res = await fetch(`${web.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=&'.repeat(80_000),
    })
    expect(res.status).toBe(413)
    const html = await res.text()
    expect(html).toContain('That was more than this form can take. Please try again with less.')
    expect(html).not.toContain('Something went wrong on our side')
  })
})

/** fetch() would decode the body and hide the encoding; node:http shows it. */
function fetchRaw(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}
