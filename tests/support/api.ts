import { randomInt, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose'
import { pino } from 'pino'
import { vi } from 'vitest'
import webpush from 'web-push'
import type { Envelope } from '#contract/envelope'
import type { User } from '../../api/db/schema'
import { dayBounds } from '../../api/lib/day'
import { hashSecret, type HashCost } from '../../api/lib/hash'
import { REDACT_PATHS } from '../../api/lib/logger'
import { createMemoryMailer, type Mail } from '../../api/lib/mailer'
import { createSession } from '../../api/models/sessions'
import { createUser } from '../../api/models/users'
import { startApi, type ConfigOverrides, type RunningApi } from '../../api/server'
import { createTestDatabase } from './db'

/** VAPID keys of this test process (tests/support/push-service.ts checks pushes against the public one). */
export const TEST_VAPID_KEYS = webpush.generateVAPIDKeys()

export const TEST_GOOGLE_CLIENT_ID = 'test-client-id.apps.googleusercontent.com'

/** A clock the test moves by hand; starts at the real time. */
export type TestClock = { now(): number; advance(ms: number): void; set(ms: number): void }

export function createTestClock(start = Date.now()): TestClock {
  let t = start
  return {
    now: () => t,
    advance: (ms) => {
      t += ms
    },
    set: (ms) => {
      t = ms
    },
  }
}

/**
 * Moves the api's clock forward to the next `hour`:`minute` of the wallet's time zone. A test that
 * counts what happened "today" and moves the clock by minutes or hours straddles the day's end when
 * the suite happens to run shortly before midnight there; from noon it never does, and from 23:55
 * a test crosses that midnight on purpose.
 */
export function moveToTimeOfDay(api: Pick<TestApi, 'clock' | 'deps'>, hour: number, minute = 0): void {
  const now = api.clock.now()
  const today = dayBounds(now, api.deps.config.wallet.timeZone)
  const at = (hour * 60 + minute) * 60_000
  api.clock.set(today.start + at >= now ? today.start + at : today.end + at)
}

export type ApiAnswer<T = unknown> = { status: number; body: Envelope<T>; headers: Headers; text: string }
export type RequestOptions = { token?: string; headers?: Record<string, string> }

export type TestApi = {
  url: string
  /** Where /metrics answers, when config.metrics names a port. */
  metricsUrl?: string
  /** The Express app, for tests that read its routes. */
  app: RunningApi['app']
  /** The api's dependencies (for spying on the hasher, not for moving money). */
  deps: RunningApi['deps']
  db: RunningApi['db']
  dbKind: RunningApi['dbKind']
  /** The throw-away database's DATABASE_URL, for tools that open it themselves (npm run ops -- backup). */
  databaseUrl: string
  /** Every mail the api sent, in order (to, subject, text, codeType for code mails). */
  mails: Mail[]
  /** The newest 6-digit code mailed to `email` (of `type`, if given); throws if there is none. */
  lastCode(email: string, type?: number): string
  clock: TestClock
  /** The cost this api hashes new secrets with: 'test' (cheap) unless realHashing. */
  hashCost: HashCost
  /** Every log line the api wrote (JSON strings), for checking that no secret leaks. */
  logs: string[]
  /** How many SQL statements the api has run so far (read it before and after a call). */
  queryCount(): number
  /** The SQL of every statement the api has run so far, in order (slice from a queryCount()). */
  queries: string[]
  /** POST a JSON body (or a raw string with your own content type) with headers clientType: h5 and token. */
  post<T = unknown>(path: string, body?: unknown, opts?: RequestOptions & { raw?: string | Buffer }): Promise<ApiAnswer<T>>
  /** GET with the `_t` cache buster the web client adds (SPEC §7). */
  get<T = unknown>(path: string, opts?: RequestOptions): Promise<ApiAnswer<T>>
  close(): Promise<void>
}

export type StartTestApiOptions = {
  config?: ConfigOverrides
  /**
   * argon2id at the production cost (19 MiB, 2 passes) instead of the suite's cheap one.
   * For tests about hashing itself (timing, stored format).
   */
  realHashing?: boolean
  clock?: TestClock
  logLevel?: string
}

/**
 * The real api on a throw-away database (SQLite, or PostgreSQL with TEST_DB=postgres), an
 * in-memory mailer and a hand-moved clock, listening on a free port. Error-level log lines are
 * echoed to console.error, which fails the test (tests/support/setup.ts): an unexpected 500 is a bug.
 */
export async function startTestApi(options: StartTestApiOptions = {}): Promise<TestApi> {
  const database = await createTestDatabase()
  const mailer = createMemoryMailer()
  const clock = options.clock ?? createTestClock()
  const logs: string[] = []
  const queries: string[] = []
  const hashCost: HashCost = options.realHashing ? 'production' : 'test'
  const logger = pino(
    { level: options.logLevel ?? 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    {
      write(line: string) {
        logs.push(line)
        if (JSON.parse(line).level >= 50) console.error(`api logged an error: ${line}`)
      },
    },
  )

  let api: RunningApi
  try {
    api = await startApi({
      env: {} as NodeJS.ProcessEnv,
      databaseUrl: database.url,
      port: 0,
      host: '127.0.0.1',
      mailer,
      logger,
      now: clock.now,
      housekeeping: false,
      // Tests run the payout worker's passes themselves (runPayoutsOnce): no timers.
      payoutWorker: false,
      // Tests run the delivery worker's passes themselves (runDeliveriesOnce).
      deliveryWorker: false,
      onQuery: (sql) => void queries.push(sql),
      hashCost,
      config: {
        // Generous, so suites that make many calls from 127.0.0.1 are not throttled; rate-limit
        // tests pass their own numbers.
        authRateLimit: 100_000,
        loginFailLimit: 1_000,
        googleClientIds: [TEST_GOOGLE_CLIENT_ID],
        googleJwksUrl: 'http://127.0.0.1:9/unset-jwks',
        brandName: 'Cardlane',
        // Operators' calls are on in tests (tests/support/wallet.ts holds the same token).
        adminToken: 'test-admin-token-0123456789abcdef-0123456789',
        // Push keys of the test run, never a file in the worktree (decision 046).
        notify: {
          publicUrl: 'https://web.test',
          vapid: TEST_VAPID_KEYS,
          vapidSubject: 'mailto:support@cardlane.local',
          vapidKeyFile: '/nonexistent/vapid-keys.json',
          production: false,
          concurrency: 4,
          sendTimeoutMs: 5_000,
          leaseMs: 60_000,
        },
        ...options.config,
      },
    })
  } catch (err) {
    await database.drop()
    throw err
  }

  const request = async <T>(method: string, path: string, body: unknown, opts: RequestOptions & { raw?: string | Buffer } = {}) => {
    const headers: Record<string, string> = { clientType: 'h5', ...opts.headers }
    if (opts.token !== undefined) headers.token = opts.token
    let payload: string | Buffer | undefined
    if (opts.raw !== undefined) payload = opts.raw
    else if (body !== undefined) {
      payload = JSON.stringify(body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await fetch(api.url + path, { method, headers, body: payload })
    const text = await res.text()
    let parsed: Envelope<T>
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new Error(`${method} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`)
    }
    return { status: res.status, body: parsed, headers: res.headers, text }
  }

  return {
    url: api.url,
    metricsUrl: api.metricsUrl,
    app: api.app,
    deps: api.deps,
    db: api.db,
    dbKind: api.dbKind,
    databaseUrl: database.url,
    mails: mailer.mails,
    clock,
    hashCost,
    logs,
    queryCount: () => queries.length,
    queries,
    lastCode(email, type) {
      const to = email.trim().toLowerCase()
      for (let i = mailer.mails.length - 1; i >= 0; i--) {
        const m = mailer.mails[i]
        if (m.to !== to || m.codeType === undefined || (type !== undefined && m.codeType !== type)) continue
        const code = /\b(\d{6})\b/.exec(m.text)?.[1]
        if (code) return code
      }
      throw new Error(`no code mailed to ${to}${type !== undefined ? ` of type ${type}` : ''}`)
    },
    post: (path, body, opts) => request('POST', path, body, opts),
    get: (path, opts) => request('GET', `${path}${path.includes('?') ? '&' : '?'}_t=${Date.now()}`, undefined, opts),
    async close() {
      await api.close()
      await database.drop()
    },
  }
}

/**
 * A stand-in for Google's key set: an RS256 key served as JWKS on a local port, and id_tokens
 * signed with it. Point the api at it with config.googleJwksUrl = fake.jwksUrl.
 */
export type FakeGoogle = {
  jwksUrl: string
  /** A valid id_token for these claims (defaults: Google issuer, test audience, verified e-mail). */
  idToken(
    claims?: JWTPayload & Record<string, unknown>,
    opts?: { key?: KeyLike; kid?: string; now?: number; expiresInS?: number },
  ): Promise<string>
  /** A key pair Google never published, for forged tokens. */
  otherKey(): Promise<KeyLike>
  close(): Promise<void>
}

/**
 * Google's token and userinfo endpoints as remix-auth-google calls them, faked by intercepting
 * fetch for Google's hosts only (every other call goes through). The token endpoint answers the
 * id_token `idToken()` gives at that moment (signed by startFakeGoogle's key); with `code`, only
 * for that code (anything else: invalid_grant). Undo with vi.unstubAllGlobals().
 */
export function stubGoogleEndpoints({
  idToken,
  code,
  scope = 'openid email',
  userinfo = { sub: '1', name: 'Ada', email: 'ada@gmail.com', email_verified: true },
}: {
  idToken: () => string
  code?: string
  scope?: string
  userinfo?: Record<string, unknown>
}) {
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    if (url.host === 'oauth2.googleapis.com' && url.pathname === '/token') {
      if (code !== undefined && new URLSearchParams(String(init?.body)).get('code') !== code)
        return Response.json({ error: 'invalid_grant' }, { status: 400 })
      return Response.json({ access_token: 'google-access', token_type: 'Bearer', expires_in: 3600, scope, id_token: idToken() })
    }
    if (url.host === 'www.googleapis.com') return Response.json(userinfo)
    return realFetch(input, init)
  })
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const { publicKey, privateKey } = await generateKeyPair('RS256')
  const kid = randomUUID()
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    async idToken(claims = {}, opts = {}) {
      const now = Math.floor((opts.now ?? Date.now()) / 1000)
      const body: JWTPayload & Record<string, unknown> = {
        iss: 'https://accounts.google.com',
        aud: TEST_GOOGLE_CLIENT_ID,
        sub: `1${randomInt(1e9, 1e10 - 1)}${randomInt(1e9, 1e10 - 1)}`,
        email: 'someone@gmail.com',
        email_verified: true,
        name: 'Some One',
        iat: now,
        exp: now + (opts.expiresInS ?? 3600),
        ...claims,
      }
      return new SignJWT(body).setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? kid, typ: 'JWT' }).sign(opts.key ?? privateKey)
    },
    async otherKey() {
      return (await generateKeyPair('RS256')).privateKey
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

const hashCache = new Map<string, Promise<string>>()

/**
 * A user straight in the database, with a live token, for tests whose subject is not sign-up.
 * Password hashes are cached per password: the real hash is slow on purpose.
 */
export async function seedUser(
  api: TestApi,
  fields: { email: string; password?: string | null; userName?: string; googleSub?: string },
): Promise<{ user: User; token: string }> {
  let passwordHash: string | null = null
  if (fields.password) {
    const key = `${api.hashCost}:${fields.password}`
    if (!hashCache.has(key)) hashCache.set(key, hashSecret(fields.password, api.hashCost))
    passwordHash = await hashCache.get(key)!
  }
  const email = fields.email.trim().toLowerCase()
  const user = await createUser(
    api.db,
    { email, password_hash: passwordHash, user_name: fields.userName ?? email.split('@')[0], google_sub: fields.googleSub ?? null },
    api.clock.now(),
  )
  const token = await createSession(api.db, user.id, api.clock.now(), 30 * 86_400_000)
  return { user, token }
}

/** Sign-up through the api itself: code mailed, then register. Answers the token. */
export async function registerUser(api: TestApi, email: string, password = 'a fine passphrase 42'): Promise<string> {
  const sent = await api.post('/auth/sendEmailCode', { email, type: 1 })
  if (sent.body.code !== 200) throw new Error(`sendEmailCode: ${sent.text}`)
  const res = await api.post<string>('/auth/register', { email, password, verifyCode: api.lastCode(email, 1) })
  if (res.body.code !== 200) throw new Error(`register: ${res.text}`)
  return res.body.data
}
