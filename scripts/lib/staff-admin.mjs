// A staff admin for a benchmark's own api, made and signed in the way a person does it: the
// break-glass ADMIN_TOKEN only invites (as `npm run ops -- staff add` does), then the set-up link,
// a password and the authenticator's codes, as the console's set-up and sign-in screens send them.
// Money then moves as that staff member: the ADMIN_TOKEN moves none.
import { randomBytes } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'

// The authenticator app's code (api/lib/totp.ts: SHA-1, 6 digits, 30-second steps).
const totpCode = (secret, at) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at })

/**
 * A staff admin set up through the invite and set-up link: answers { email, password, secret } and
 * `codeAt(ms)`, the authenticator's code at a moment (the set-up used the current step's code).
 * Only 127.0.0.1 apis.
 */
export async function staffAdminAccount(api, adminToken) {
  if (new URL(api).hostname !== '127.0.0.1') throw new Error(`staff admin: ${api} is not 127.0.0.1`)
  const email = `bench.admin.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`
  const password = randomBytes(18).toString('base64url')
  const { setupToken: token } = await post(api, '/admin/staff/invite', { email, role: 'admin' }, { authorization: `Bearer ${adminToken}` })
  const { secret } = await post(api, '/staff/setup/start', { token })
  await post(api, '/staff/setup/complete', { token, password, code: totpCode(secret, Date.now()) })
  return { email, password, secret, codeAt: (at) => totpCode(secret, at) }
}

/** Answers the staff session token (`Authorization: Bearer <token>`). Only 127.0.0.1 apis. */
export async function staffAdminToken(api, adminToken) {
  const account = await staffAdminAccount(api, adminToken)
  const { challenge } = await post(api, '/staff/login', { email: account.email, password: account.password })
  // The set-up used this step's code and a code is good once: the next step's (accepted one early).
  const session = await post(api, '/staff/verify', { challenge, code: account.codeAt(Date.now() + 30_000) })
  return session.token
}

async function post(api, route, body, headers = {}) {
  const res = await fetch(api + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${route}: ${json.code} ${json.msg}`)
  return json.data
}
