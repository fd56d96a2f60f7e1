import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import * as root from '~/root'
import * as editProfile from '~/routes/edit-profile'
import * as login from '~/routes/login'
import { googleLoginFlow, loginFlow, registerFlow, resetPasswordFlow, sendCodeFlow } from '~/upstream/accounts.server'
import * as upstreamModule from '~/upstream/client.server'
import { createUpstream, fromThrown, UpstreamError } from '~/upstream/client.server'
import type { FlowFailure } from '~/upstream/flow.server'
import { MAX_ANSWER_BYTES } from '~/upstream/lean-fetch.server'
import { updateProfileFlow } from '~/upstream/profile.server'
import { flowMessage } from '~/utils/messages'
import { commitSession, getSession } from '~/utils/session.server'
import { closedPort, startFaultUpstream } from '../support/fault-upstream'
import { CookieJar, expectRedirect, freshContext, jsonOf, load, makeRequest, submit } from '../support/web'

let upstream: Awaited<ReturnType<typeof startFaultUpstream>>

beforeAll(async () => {
  upstream = await startFaultUpstream()
  process.env.API_BASE_URL = upstream.url
  process.env.UPSTREAM_TIMEOUT_MS = '300'
})
afterAll(async () => {
  await upstream.close()
  delete process.env.UPSTREAM_TIMEOUT_MS
})
beforeEach(() => {
  upstream.seen.length = 0
})

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error as UpstreamError
  }
  throw new Error('expected the call to fail')
}

const client = () => createUpstream()

describe('the upstream client speaks SPEC §7', () => {
  it('sends token and clientType h5, a fresh _t on GET, JSON on POST, and hands back the whole envelope', async () => {
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: 'ok', data: { a: 1 } } })
    const envelope = await client().get('/v1/user/index', { token: 'secret-token' })
    expect(envelope).toEqual({ code: 200, msg: 'ok', data: { a: 1 } })
    const get = upstream.seen[0]
    expect(get.method).toBe('GET')
    expect(get.headers.token).toBe('secret-token')
    expect(get.headers.clienttype).toBe('h5')
    expect(new URL(get.url, 'http://x').searchParams.get('_t')).toMatch(/^\d{13}$/)

    await client().post('/auth/login', { email: 'a@b.co', password: 'x' })
    const post = upstream.seen[1]
    expect(post.method).toBe('POST')
    expect(post.headers['content-type']).toContain('application/json')
    expect(post.headers.token).toBeUndefined()
    expect(post.headers.clienttype).toBe('h5')
    expect(JSON.parse(post.body)).toEqual({ email: 'a@b.co', password: 'x' })
    expect(new URL(post.url, 'http://x').searchParams.has('_t')).toBe(false)
  })
})

describe('every line of the error catalogue (SPEC §8), word for word', () => {
  const cases: { name: string; fault: Parameters<typeof upstream.set>[0]; kind: string; message: string }[] = [
    {
      name: 'body code 401',
      fault: { kind: 'json', status: 200, body: { code: 401, msg: 'token gone', data: null } },
      kind: 'expired',
      message: 'Login expired, please login again',
    },
    {
      name: 'HTTP 401',
      fault: { kind: 'json', status: 401, body: { msg: 'no' } },
      kind: 'expired',
      message: 'Login expired, please login again',
    },
    {
      name: 'body code ≠ 200 with msg',
      fault: { kind: 'json', status: 200, body: { code: 4001, msg: 'Incorrect e-mail or password', data: null } },
      kind: 'refused',
      message: 'Incorrect e-mail or password',
    },
    {
      name: 'body code ≠ 200 without msg',
      fault: { kind: 'json', status: 200, body: { code: 4001, msg: '', data: null } },
      kind: 'refused',
      message: 'Request failed',
    },
    {
      name: 'HTTP 400 with msg',
      fault: { kind: 'json', status: 400, body: { code: 400, msg: 'email: Enter a valid e-mail address' } },
      kind: 'http',
      message: 'email: Enter a valid e-mail address',
    },
    { name: 'HTTP 400 without msg', fault: { kind: 'json', status: 400, body: {} }, kind: 'http', message: 'Invalid request parameters' },
    { name: 'HTTP 403', fault: { kind: 'json', status: 403, body: { msg: 'nope' } }, kind: 'http', message: 'Access denied' },
    {
      name: 'HTTP 404',
      fault: { kind: 'text', status: 404, body: 'Not Found' },
      kind: 'http',
      message: 'API endpoint not found. Please check if the backend service is running correctly.',
    },
    { name: 'HTTP 500', fault: { kind: 'text', status: 500, body: 'boom' }, kind: 'http', message: 'Server internal error' },
    {
      name: 'other status with msg',
      fault: { kind: 'json', status: 502, body: { msg: 'bad gateway upstream' } },
      kind: 'http',
      message: 'Request failed (502): bad gateway upstream',
    },
    {
      name: 'other status with message',
      fault: { kind: 'json', status: 429, body: { message: 'slow down' } },
      kind: 'http',
      message: 'Request failed (429): slow down',
    },
    {
      name: 'other status without msg or message: the status alone, nothing made up',
      fault: { kind: 'json', status: 418, body: { error: 'teapot', detail: 'short and stout' } },
      kind: 'http',
      message: 'Request failed (418)',
    },
    {
      name: 'other status: msg before message',
      fault: { kind: 'json', status: 409, body: { msg: 'the msg', message: 'the message' } },
      kind: 'http',
      message: 'Request failed (409): the msg',
    },
    {
      name: 'a 2xx that is no envelope',
      fault: { kind: 'text', status: 200, body: '<html>proxy page</html>', contentType: 'text/html' },
      kind: 'unknown',
      message: 'Unknown error occurred',
    },
    {
      name: 'network failure (socket destroyed)',
      fault: { kind: 'destroy' },
      kind: 'network',
      message: 'Network connection failed. Please check your internet connection.',
    },
    { name: 'timeout', fault: { kind: 'hang' }, kind: 'timeout', message: 'Request timeout. Please try again later.' },
    {
      name: 'timeout while the body is read (headers came, the rest never does)',
      fault: { kind: 'stall-body' },
      kind: 'timeout',
      message: 'Request timeout. Please try again later.',
    },
  ]
  for (const c of cases) {
    it(c.name, async () => {
      upstream.set(c.fault)
      const error = await failureOf(client().post('/auth/login', {}))
      expect(error).toBeInstanceOf(UpstreamError)
      expect(error.kind).toBe(c.kind)
      expect(error.message).toBe(c.message)
    })
  }

  it('an answer bigger than the web will hold is "Unknown error occurred", declared or streamed', async () => {
    // Envelopes the client would take, but for their size.
    const envelope = JSON.stringify({ code: 200, msg: '', data: 'x'.repeat(MAX_ANSWER_BYTES) })
    upstream.set({ kind: 'text', status: 200, body: envelope, contentType: 'application/json' })
    const declared = await failureOf(client().get('/v1/user/index'))
    expect([declared.kind, declared.message]).toEqual(['unknown', 'Unknown error occurred'])
    upstream.set({ kind: 'chunked', chunks: 5, chunkBytes: MAX_ANSWER_BYTES / 4 })
    const streamed = await failureOf(client().get('/v1/user/index'))
    expect([streamed.kind, streamed.message]).toEqual(['unknown', 'Unknown error occurred'])
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: '', data: 'x'.repeat(100_000) } })
    expect((await client().get('/v1/user/index')).data).toHaveLength(100_000) // a big real answer still passes
  })

  it('a redirect from the api is an answer, never followed to another host (the token would go with it)', async () => {
    const elsewhere = await startFaultUpstream()
    try {
      upstream.set({ kind: 'redirect', location: `${elsewhere.url}/collect` })
      const error = await failureOf(client().get('/v1/user/index', { token: 'secret-token' }))
      expect(error.kind).toBe('http')
      expect(error.status).toBe(302)
      expect(elsewhere.seen).toEqual([])
    } finally {
      await elsewhere.close()
    }
  })

  it('anything else: the error message, or "Unknown error occurred"', () => {
    const withMessage = fromThrown(new Error('Invalid URL: api base'))
    expect([withMessage.kind, withMessage.message]).toEqual(['unknown', 'Invalid URL: api base'])
    const without = fromThrown(new Error(''))
    expect([without.kind, without.message]).toEqual(['unknown', 'Unknown error occurred'])
    expect(fromThrown('a string thrown').message).toBe('Unknown error occurred')
  })

  it('connection refused', async () => {
    const error = await failureOf(createUpstream({ baseURL: await closedPort() }).get('/v1/user/index'))
    expect(error.kind).toBe('connection-refused')
    expect(error.message).toBe('Cannot connect to server. Please check if the backend service is running.')
  })
})

describe('flows answer {success:false, msg} with the server msg or the fallback (SPEC §8)', () => {
  const flows = [
    [
      'login',
      () => loginFlow(makeRequest('/login'), freshContext(), { email: 'a@b.co', password: 'x' }),
      'Login failed, please try again later',
    ],
    [
      'register',
      () => registerFlow(makeRequest('/register'), freshContext(), { email: 'a@b.co', password: 'x', verifyCode: '123456' }),
      'Registration failed, please try again later',
    ],
    [
      'send code',
      () => sendCodeFlow(makeRequest('/register'), freshContext(), { email: 'a@b.co', type: 1 }),
      'Failed to send verification code, please try again later',
    ],
    [
      'reset',
      () => resetPasswordFlow(makeRequest('/forgot-password'), freshContext(), { email: 'a@b.co', password: 'x', verifyCode: '123456' }),
      'Password reset failed, please try again later',
    ],
    [
      'profile',
      () => updateProfileFlow(makeRequest('/edit-profile'), freshContext(), { userName: 'x' }),
      'Failed to update user information, please try again later',
    ],
    [
      'google',
      () => googleLoginFlow(makeRequest('/auth/google/callback'), freshContext(), 'id'),
      'Google Login failed, please try again later',
    ],
  ] as const

  for (const [name, run] of flows) {
    it(`${name}: server msg`, async () => {
      upstream.set({ kind: 'json', status: 200, body: { code: 4999, msg: 'The server said why', data: null } })
      expect(await run()).toMatchObject({ success: false, msg: 'The server said why', code: 4999, kind: 'refused' })
    })
  }
  for (const [name, run, fallback] of flows) {
    it(`${name}: the thrown error's message, else "${fallback}"`, async () => {
      upstream.set({ kind: 'json', status: 500, body: {} })
      expect(await run()).toMatchObject({ success: false, msg: 'Server internal error' })
      vi.spyOn(upstreamModule.upstream, 'call').mockRejectedValueOnce(new Error(''))
      expect(await run()).toEqual({ success: false, msg: fallback })
    })
  }
})

describe('a 429 is worded by what it is', () => {
  it('the api busy for a moment (no Retry-After): try again in a moment, never "wait 15 minutes"', async () => {
    upstream.set({ kind: 'json', status: 429, body: { code: 429, msg: 'Too many requests, please try again later', data: null } })
    const failure = await loginFlow(makeRequest('/login'), freshContext(), { email: 'a@b.co', password: 'x' })
    expect(failure.success).toBe(false)
    expect(flowMessage(failure as FlowFailure)).toBe('We are busy right now. Please try again in a moment.')
  })

  it('a lockout (Retry-After): the wait it says', async () => {
    upstream.set({ kind: 'json', status: 429, body: { code: 429, msg: 'Too many', data: null }, headers: { 'Retry-After': '840' } })
    const failure = await loginFlow(makeRequest('/login'), freshContext(), { email: 'a@b.co', password: 'x' })
    expect(flowMessage(failure as FlowFailure)).toBe('Too many attempts. Please wait 14 minutes, then try again.')
  })
})

describe('the e-mail the server omits (SPEC §3)', () => {
  it('keeps the one held before', async () => {
    const userInfo = { userId: 'u-1', userName: 'Ada', headImg: null }
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: '', data: { userInfo, unreadCount: 0 } } })
    const jar = new CookieJar()
    const session = await getSession(makeRequest('/'))
    session.set('token', 'a-token')
    session.set('login_email', 'kept@example.com')
    jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))
    const data = await jsonOf(await load(root.loader, '/account', jar))
    expect(data.user).toMatchObject({ userId: 'u-1', userName: 'Ada', email: 'kept@example.com' })
    // And a new one, when the server sends it, replaces it.
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: '', data: { userInfo: { ...userInfo, email: 'new@example.com' } } } })
    expect((await jsonOf(await load(root.loader, '/account', jar))).user.email).toBe('new@example.com')
  })
})

describe('an answer that does not fit the contract', () => {
  it('is the catalogue\'s "Unknown error occurred", never a value cast to a type it does not have', async () => {
    // code 200, but data is not the token string the login record promises.
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: 'success', data: { token: 42 } } })
    expect(await loginFlow(makeRequest('/login'), freshContext(), { email: 'a@b.co', password: 'x' })).toMatchObject({
      success: false,
      msg: 'Unknown error occurred',
    })
    // The same answer through the raw client is handed back whole: only the typed call parses.
    expect((await client().post('/auth/login', {})).data).toEqual({ token: 42 })
    // A userInfo without its userId is refused too.
    upstream.set({ kind: 'json', status: 200, body: { code: 200, msg: '', data: { userInfo: { userName: 'x', headImg: null } } } })
    const { profileApi } = await import('#contract/profile')
    const error = await failureOf(client().call(profileApi.index, {}, { token: 't' }))
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error.message).toBe('Unknown error occurred')
  })
})

describe('401 anywhere ends the session and sends the browser to /login with the toast', () => {
  async function signedInJar() {
    const jar = new CookieJar()
    const session = await getSession(makeRequest('/'))
    session.set('token', 'stale-token')
    session.set('login_email', 'old@example.com')
    jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))
    return jar
  }

  for (const [name, fault] of [
    ['body code 401', { kind: 'json', status: 200, body: { code: 401, msg: 'expired', data: null } }],
    ['HTTP 401', { kind: 'json', status: 401, body: {} }],
  ] as const) {
    it(`${name} on a page load (root loader)`, async () => {
      upstream.set(fault)
      const jar = await signedInJar()
      const response = await load(root.loader, '/account?tab=1', jar)
      expectRedirect(response, '/login?redirectTo=%2Faccount%3Ftab%3D1')
      // A full document reload, also when the request came from a fetcher.
      expect(response.headers.get('X-Remix-Reload-Document')).toBe('true')
      const session = await getSession(makeRequest('/', { jar }))
      expect(session.get('token')).toBeUndefined()
      expect(session.get('login_email')).toBeUndefined()
      const next = await jsonOf(await load(root.loader, '/login', jar))
      expect(next.toast).toMatchObject({ type: 'error', message: 'Login expired, please login again', durationMs: 4000 })
      expect(next.user).toBeNull()
    })
  }

  it('on a form post (edit profile)', async () => {
    upstream.set({ kind: 'json', status: 200, body: { code: 401, msg: '', data: null } })
    const jar = await signedInJar()
    const response = await submit(editProfile.action, '/edit-profile', { userName: 'New name' }, jar)
    expectRedirect(response, '/login')
    const session = await getSession(makeRequest('/', { jar }))
    expect(session.get('token')).toBeUndefined()
  })

  it('a refused login says it beside the form only (a refusal of the input is no toast), keeps the e-mail, never the password', async () => {
    upstream.set({ kind: 'json', status: 200, body: { code: 4001, msg: 'Incorrect e-mail or password', data: null } })
    const response = await submit(login.action, '/login', { intent: 'password', email: 'someone@example.com', password: 'secret-password' })
    expect(response.status).toBe(400)
    const data = await jsonOf(response)
    expect(data.toast).toBeNull()
    expect(data.result.error['']).toEqual(['Incorrect e-mail or password'])
    expect(data.result.initialValue.email).toBe('someone@example.com')
    expect(JSON.stringify(data)).not.toContain('secret-password')
  })
})
