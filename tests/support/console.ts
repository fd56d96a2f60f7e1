import type { StaffRole } from '#contract/endpoint'
import { commitStaffSession, emptyStaffSession, getStaffSession } from '~/ops/session.server'
import type { TestApi } from './api'
import { seedStaff, type SeededStaff } from './staff'
import { CookieJar, makeRequest } from './web'

/**
 * A browser's cookie jar signed in to the operator console as a new staff member of `role`
 * (seeded straight in the database, with a live api session). tests/web/ops-sign-in.test.ts goes
 * through the real two-step sign-in.
 */
export async function staffJar(api: TestApi, role: StaffRole = 'admin', email?: string): Promise<{ jar: CookieJar; staff: SeededStaff }> {
  const staff = await seedStaff(api, { role, email })
  return { jar: await jarFor(staff), staff }
}

/** A jar holding the console cookie of a staff session token. */
export async function jarFor(staff: Pick<SeededStaff, 'token' | 'email' | 'role'>): Promise<CookieJar> {
  const session = await emptyStaffSession()
  session.set('token', staff.token)
  session.set('email', staff.email)
  session.set('role', staff.role)
  const jar = new CookieJar()
  jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitStaffSession(session) } }))
  return jar
}

/** The console's flash toast a response sets (the staff cookie's), or undefined. */
export async function staffToastOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const session = await getStaffSession(makeRequest('/ops', { headers: { cookie } }))
  return session.get('toast')
}
