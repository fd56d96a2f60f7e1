import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../api/config'
import { startTestApi, type TestApi } from '../support/api'

/**
 * /readyz says whether a balancer may send this instance traffic: the database answers, every
 * migration of this build has run, the payout provider has its settings, and the process is not
 * stopping. /healthz only says it is alive.
 */
let api: TestApi | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
})

describe('GET /readyz', () => {
  it('is ready when the database answers, the schema is current and the provider is set', async () => {
    api = await startTestApi()
    const res = await api.get('/readyz')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ db: 'ok', migrations: 'ok', payouts: 'ok' })
  })

  it('is not ready while a migration of this build has not run', async () => {
    api = await startTestApi()
    const [last] = await api.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .limit(1)
      .execute()
    await api.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', (last as { name: string }).name as never)
      .execute()
    const res = await api.get('/readyz')
    expect(res.status).toBe(503)
    expect(res.body.data).toMatchObject({ db: 'ok', migrations: 'behind' })
    expect((await api.get('/healthz')).status).toBe(200)
  })

  it('is not ready when the payout provider has no key', async () => {
    api = await startTestApi({
      config: {
        payouts: { ...loadConfig({} as NodeJS.ProcessEnv).payouts, provider: 'paystack', paystackSecretKey: '' },
      },
    })
    const res = await api.get('/readyz')
    expect(res.status).toBe(503)
    expect(res.body.data).toMatchObject({ payouts: 'missing' })
  })

  it('answers 503 once the process is stopping, while it still serves what is in flight', async () => {
    api = await startTestApi()
    api.deps.lifecycle.stopping = true
    const res = await api.get('/readyz')
    expect(res.status).toBe(503)
    expect(res.body.data).toEqual({ process: 'stopping' })
    expect((await api.get('/healthz')).status).toBe(200)
  })
})
