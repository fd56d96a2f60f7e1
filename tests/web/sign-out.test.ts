import { describe, expect, it } from 'vitest'
import * as logout from '~/routes/logout'
import { getSession } from '~/utils/session.server'
import { seedUser } from '../support/api'
import { closedPort } from '../support/fault-upstream'
import { useTestApi } from '../support/kit'
import { makeRequest, signedInJar, submit } from '../support/web'

/**
 * Signed out means the api revoked the token. Clearing only the cookie while the api is down
 * left a token valid for 30 days in every saved copy of that cookie (replayed after recovery:
 * signed in, 3 of 3).
 */
const api = useTestApi()

describe('sign out', () => {
  it('with the api unreachable: still signed in, told so with an error toast, back on Account to retry', async () => {
    const { token } = await seedUser(api, { email: `out.down.${Date.now()}@example.com`, password: null })
    const jar = await signedInJar(token)
    const realApi = process.env.API_BASE_URL
    process.env.API_BASE_URL = await closedPort()
    try {
      const res = await submit(logout.action, '/logout', {}, jar)
      expect(res).toHaveRedirect('/account')
      await expect(res).toSendToast({
        type: 'error',
        message: 'Sign-out could not reach the server, so you are still signed in. Please try again.',
      })
      expect((await getSession(makeRequest('/', { jar }))).get('token')).toBe(token)
    } finally {
      process.env.API_BASE_URL = realApi
    }
    // The token still works: nothing was claimed that did not happen.
    expect((await api.get('/v1/user/index', { token })).status).toBe(200)

    // The api is back: the retry revokes it and says so.
    const retry = await submit(logout.action, '/logout', {}, jar)
    expect(retry).toHaveRedirect('/')
    await expect(retry).toSendToast({ type: 'success', message: 'You are signed out' })
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeUndefined()
    expect((await api.get('/v1/user/index', { token })).status).toBe(401)
  })

  it('with a token the api already forgot: signed out here too (nothing left to revoke)', async () => {
    const { token } = await seedUser(api, { email: `out.gone.${Date.now()}@example.com`, password: null })
    const jar = await signedInJar(token)
    expect((await api.post('/auth/logout', {}, { token })).status).toBe(200)
    const res = await submit(logout.action, '/logout', {}, jar)
    expect(res).toHaveRedirect('/')
    await expect(res).toSendToast({ type: 'success', message: 'You are signed out' })
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeUndefined()
  })
})
