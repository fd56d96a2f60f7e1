import { expect, it } from 'vitest'
import { supportApi } from '#contract/support'
import { useTestApi } from '../support/kit'

/** GET /v1/support/info (public): the withdrawal settings Help & Support quotes are the ones withdrawals are checked against. */
const api = useTestApi({ web: false, config: {} })

it('answers anyone with the installation withdrawal settings', async () => {
  const res = await api.get('/v1/support/info')
  expect(res.status).toBe(200)
  const { wallet } = api.deps.config
  expect(supportApi.info.data.parse(res.body.data)).toEqual({
    currency: wallet.currency,
    withdraw: {
      min: wallet.withdrawMin,
      fee: wallet.withdrawFee,
      dailyMax: wallet.withdrawDailyMax,
      payoutHours: wallet.payoutHours,
      timeZone: wallet.timeZone,
    },
  })
  // The same numbers a signed-in person's Withdraw screen gets, and nothing about anyone.
  expect(JSON.stringify(res.body)).not.toMatch(/pepper|token|email/i)
})
