import type { StaffRole } from '#contract/endpoint'
import { STAFF_SESSION_IDLE_MS, STAFF_SESSION_MAX_MS } from '#contract/ops/staff'
import { hashSecret } from '../../api/lib/hash'
import { createSecretsBox } from '../../api/lib/secrets-box'
import { hashToken } from '../../api/lib/tokens'
import { newTotpSeed, totpCode } from '../../api/lib/totp'
import { createStaffSession, insertStaff, updateStaff } from '../../api/models/ops/staff'
import type { TestApi } from './api'
import { newEmail } from './kit'

/** The staff admin every suite's operator calls act as (tests/support/wallet.ts `admin`). */
export const TEST_STAFF_EMAIL = 'tester@staff.test'
export const TEST_STAFF_ACTOR = `staff:${TEST_STAFF_EMAIL}`
export const STAFF_PASSWORD = 'correct horse battery staple'

export type SeededStaff = { staffId: string; email: string; role: StaffRole; seed: string; token: string }

/**
 * A staff member straight in the database, set up (password, authenticator seed) and signed in:
 * for suites about something else. tests/api/staff.test.ts goes through the real set-up and sign-in.
 */
export async function seedStaff(
  api: TestApi,
  options: { email?: string; role?: StaffRole; confirmed?: boolean; createdBy?: string } = {},
): Promise<SeededStaff> {
  const email = options.email ?? newEmail('staff')
  const role = options.role ?? 'admin'
  const now = api.clock.now()
  const row = await insertStaff(api.db, { email, role, createdBy: options.createdBy ?? 'test' }, now)
  const seed = newTotpSeed()
  const box = createSecretsBox(api.deps.config.selling.codesKey)
  await updateStaff(
    api.db,
    row.id,
    {
      status: 'active',
      password_hash: await hashSecret(STAFF_PASSWORD, 'test'),
      totp_cipher: box.seal(seed, `staff-totp:${row.id}`),
      activated_at: now,
      // An admin confirmed by another (decision 041) unless a suite asks for a new one.
      ...(role === 'admin' && options.confirmed !== false && { confirmed_by: 'test', confirmed_at: now }),
    },
    now,
  )
  const { token } = await createStaffSession(api.db, row.id, now, STAFF_SESSION_MAX_MS)
  return { staffId: row.id, email, role, seed, token }
}

const suiteStaff = new Map<string, Promise<{ staffId: string; token: string }>>()

/**
 * The session token of the suite's staff admin (made once per running api, and again whenever a
 * test moved the clock past its idle or absolute end).
 */
export async function testStaffToken(api: TestApi): Promise<string> {
  let current = suiteStaff.get(api.url)
  if (!current) {
    current = seedStaff(api, { email: TEST_STAFF_EMAIL, role: 'admin' }).then((s) => ({ staffId: s.staffId, token: s.token }))
    suiteStaff.set(api.url, current)
  }
  const { staffId, token } = await current
  const now = api.clock.now()
  const live = await api.db
    .selectFrom('staff_sessions')
    .select('token_hash')
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', now - STAFF_SESSION_IDLE_MS)
    .where('last_seen_at', '<=', now)
    .executeTakeFirst()
  if (live) return token
  const fresh = { staffId, token: (await createStaffSession(api.db, staffId, now, STAFF_SESSION_MAX_MS)).token }
  suiteStaff.set(api.url, Promise.resolve(fresh))
  return fresh.token
}

/** The authenticator code of `seed` at the api's clock. */
export const codeAt = (api: TestApi, seed: string, offsetMs = 0) => totpCode(seed, api.clock.now() + offsetMs)

/** `Authorization: Bearer` headers. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
