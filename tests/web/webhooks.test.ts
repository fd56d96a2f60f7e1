import { createHmac } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import * as webhook from '~/routes/webhooks.paystack'
import { runPayoutsOnce } from '../../api/services/payouts'
import { bodyLimitFor } from '../../server/body-limit'
import { isCrossSiteMutation } from '../../server/request-guard'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { walletUser, withdraw } from '../support/wallet'
import { call, ORIGIN } from '../support/web'

/**
 * POST /webhooks/paystack on the web: the provider's bytes and signature reach the api unchanged
 * (a re-serialised body would fail the HMAC), the api's answer is the web's, and the guard and the
 * body limit let a provider's POST (no Origin) through, bounded.
 */
const fake = await startFakePaystack()
const api = useTestApi({
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: 1e12,
      pollSeconds: 60,
      requestTimeoutMs: 1_500,
      leaseMs: 10_000,
    },
  },
})
afterAll(() => fake.close())

const post = (raw: string, signature: string | null) =>
  call(
    webhook.action,
    new Request(new URL('/webhooks/paystack', ORIGIN), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature !== null && { 'x-paystack-signature': signature }) },
      body: raw,
    }),
  )
const sign = (raw: string) => createHmac('sha512', FAKE_PAYSTACK_SECRET).update(raw).digest('hex')

describe('POST /webhooks/paystack', () => {
  it('forwards the exact bytes and the signature: a signed transfer.success pays the withdrawal', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: 'Adaeze Obi' })
    const w = (await withdraw(api, u, 200_000)).body.data
    await runPayoutsOnce(api.deps)
    fake.transfers.get(w.id)!.session = { provider: 'nip', id: '9'.repeat(30) }
    // Odd spacing and a non-ASCII character: only the same bytes carry the same HMAC.
    const raw = JSON.stringify(fake.webhookBody('transfer.success', w.id), null, 3).replace('"event"', '"event"  ') + '\n'
    const bad = await post(raw, sign(raw.replace('success', 'succesś')))
    expect(bad.status).toBe(401)
    expect((await api.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status).toBe(
      'processing',
    )
    expect((await post(raw, null)).status).toBe(401)
    const res = await post(raw, sign(raw))
    expect(res.status).toBe(200)
    const row = await api.db.selectFrom('withdrawals').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'success', bank_session_id: '9'.repeat(30) })
  })

  it('answers 503 when the api cannot be reached, so the provider retries', async () => {
    const saved = process.env.API_BASE_URL
    process.env.API_BASE_URL = 'http://127.0.0.1:9'
    try {
      const raw = JSON.stringify({ event: 'transfer.success', data: {} })
      expect((await post(raw, sign(raw))).status).toBe(503)
    } finally {
      process.env.API_BASE_URL = saved
    }
  })

  it('GET is not a webhook', async () => {
    expect((await webhook.loader()).status).toBe(405)
  })

  it('the guard lets a provider’s POST through (no Origin) and refuses a browser’s from another site; the body is bounded', () => {
    expect(isCrossSiteMutation({ method: 'POST', host: 'cardlane.test', origin: undefined, secFetchSite: undefined })).toBe(false)
    expect(isCrossSiteMutation({ method: 'POST', host: 'cardlane.test', origin: 'https://evil.test', secFetchSite: 'cross-site' })).toBe(
      true,
    )
    expect(bodyLimitFor('/webhooks/paystack').maxBytes).toBe(64 * 1024)
  })
})
