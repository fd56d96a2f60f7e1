import { createECDH, createPublicKey, hkdfSync, randomBytes, createDecipheriv, verify, type ECDH } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A push service for the tests (RFC 8030), speaking the wire format a browser vendor's does: it
 * checks the VAPID JWT's ES256 signature against our public key (RFC 8292) and decrypts the
 * aes128gcm body (RFC 8188, RFC 8291) with the test's own subscription keys. Written from the
 * RFCs with node:crypto, not with web-push's code, so the two check each other.
 *
 * Each subscription has its own endpoint; its answers are scripted (201 by default, a status, or
 * `hang`: no answer until released).
 */

export type PushPayload = { title: string; body: string; url: string; tag: string }
export type ReceivedPush = { subscription: string; payload: PushPayload; topic: string | null; ttl: string | null; urgency: string | null }
type Answer = number | 'hang'

export type TestSubscription = {
  name: string
  endpoint: string
  keys: { p256dh: string; auth: string }
  /** Answers for the next pushes, in order; then 201. */
  script(...answers: Answer[]): void
  /** Lets every hanging push answer 201. */
  release(): void
}

const b64u = (b: Buffer) => b.toString('base64url')

/** RFC 8291 §3.4 and RFC 8188 §2: one record, the last, padded with 0x02 then zeros. */
export function decryptAes128gcm(body: Buffer, ua: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idlen = body[20]
  const asPublic = body.subarray(21, 21 + idlen)
  const record = body.subarray(21 + idlen)
  if (record.length > rs) throw new Error('more than one record')
  const ecdhSecret = ua.computeSecret(asPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic])
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end)
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT signed ES256 by the key, for this origin, not expired. */
export function checkVapid(header: string | undefined, publicKey: string, origin: string): string | undefined {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!m) return 'no vapid Authorization'
  if (m[2] !== publicKey) return 'k is not our public key'
  const [h, p, s] = m[1].split('.')
  const point = Buffer.from(publicKey, 'base64url')
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  })
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))
  if (!ok) return 'bad JWT signature'
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string }
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string }
  if (head.alg !== 'ES256') return 'alg is not ES256'
  if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`
  if (!claims.exp || claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 24 * 3_600_000) return 'exp out of range'
  if (!claims.sub?.startsWith('mailto:') && !claims.sub?.startsWith('https:')) return 'no sub'
  return undefined
}

export type TestPushService = {
  url: string
  received: ReceivedPush[]
  /** Requests refused for a bad signature or body (none is the right number). */
  problems: string[]
  subscription(name: string): TestSubscription
  /** Resolves when `name` has received `count` pushes. */
  waitFor(name: string, count?: number): Promise<ReceivedPush[]>
  close(): Promise<void>
}

export async function startPushService(vapidPublicKey: string): Promise<TestPushService> {
  const subs = new Map<string, { ecdh: ECDH; auth: Buffer; answers: Answer[]; hanging: ServerResponse[] }>()
  const received: ReceivedPush[] = []
  const problems: string[] = []
  const waiters: (() => void)[] = []
  let origin = ''

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const name = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''))
    const sub = subs.get(name)
    if (req.method !== 'POST' || !sub) return res.writeHead(404).end()
    const problem =
      checkVapid(req.headers.authorization, vapidPublicKey, origin) ??
      (req.headers['content-encoding'] !== 'aes128gcm' ? 'not aes128gcm' : undefined) ??
      (req.headers.ttl === undefined ? 'no TTL' : undefined)
    if (problem) {
      problems.push(problem)
      return res.writeHead(403).end(problem)
    }
    const answer = sub.answers.shift() ?? 201
    if (answer === 'hang') return void sub.hanging.push(res)
    if (answer < 300) {
      let payload: PushPayload
      try {
        payload = JSON.parse(decryptAes128gcm(body, sub.ecdh, sub.auth).toString('utf8')) as PushPayload
      } catch (err) {
        problems.push(`decrypt: ${(err as Error).message}`)
        return res.writeHead(400).end()
      }
      received.push({
        subscription: name,
        payload,
        topic: (req.headers.topic as string) ?? null,
        ttl: (req.headers.ttl as string) ?? null,
        urgency: (req.headers.urgency as string) ?? null,
      })
      waiters.splice(0).forEach((w) => w())
    }
    res.writeHead(answer, { location: `${origin}/message/${received.length}` }).end()
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handle(req, res, Buffer.concat(chunks)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: origin,
    received,
    problems,
    subscription(name) {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      const state = { ecdh, auth, answers: [] as Answer[], hanging: [] as ServerResponse[] }
      subs.set(name, state)
      return {
        name,
        endpoint: `${origin}/push/${encodeURIComponent(name)}`,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
        script: (...answers) => void state.answers.push(...answers),
        release: () => state.hanging.splice(0).forEach((r) => r.writeHead(201).end()),
      }
    },
    async waitFor(name, count = 1) {
      const mine = () => received.filter((r) => r.subscription === name)
      while (mine().length < count) await new Promise<void>((resolve) => waiters.push(resolve))
      return mine()
    },
    async close() {
      for (const s of subs.values()) s.hanging.splice(0).forEach((r) => r.destroy())
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
