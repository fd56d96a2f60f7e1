import { describe, expect, it } from 'vitest'
import type { BankCard } from '#contract/bank-cards'
import * as withdraw from '~/routes/wallet.withdraw'
import * as detail from '~/routes/wallet.withdraw_.$id'
import { useTestApi } from '../support/kit'
import { admin, PIN, validNuban, walletUser, withdraw as apiWithdraw } from '../support/wallet'
import { jsonOf, load, signedInJar } from '../support/web'

/** Withdraw says how fast payouts were; a failed payout's receipt leads back to Withdraw with its amount, to another account. */
const api = useTestApi()

const pay = async (id: string) => {
  await admin(api).post('/admin/withdraw/update', { id, status: 'processing' })
  await admin(api).post('/admin/withdraw/update', { id, status: 'success', reference: `NIP-${id.slice(0, 8)}` })
}

describe('/wallet/withdraw: how fast payouts were', () => {
  // The loader says the sentence, so the screen's script carries none of it.
  it('no sentence with fewer than 20 paid last week; then the median and the 90th percentile', async () => {
    const u = await walletUser(api, { balance: 10_000_000 })
    const jar = await signedInJar(u.token)
    expect((await jsonOf(await load(withdraw.loader, '/wallet/withdraw', jar))).speed).toBeNull()
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await apiWithdraw(api, u, 100_000)).body.data.id)
    for (const id of ids) {
      api.clock.advance(3 * 60_000)
      await pay(id)
    }
    api.clock.advance(60_000)
    const { speed } = await jsonOf(await load(withdraw.loader, '/wallet/withdraw', jar))
    expect(speed).toBe('Most payouts last week reached the bank in 30 minutes; 9 in 10 within 54 minutes.')
  })
})

describe('after a failed payout', () => {
  it('the receipt links to Withdraw with the amount and another account preselected; nothing for a paid one', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const other = await api.post<BankCard>(
      '/v1/bankCard/add',
      { bankCode: '044', accountNumber: validNuban('044'), accountName: 'Ada Obi', pin: PIN },
      { token: u.token },
    )
    expect(other.body.code, other.text).toBe(200)
    const w = (await apiWithdraw(api, u, 400_000)).body.data
    await admin(api).post('/admin/withdraw/update', { id: w.id, status: 'failed', reason: 'The bank closed this account' })
    const jar = await signedInJar(u.token)
    const receipt = await jsonOf(await load(detail.loader, `/wallet/withdraw/${w.id}`, jar, { id: w.id }))
    expect(receipt.withdrawal.status).toBe('failed')
    expect(receipt.anotherAccount).toBe(`/wallet/withdraw?amount=4000.00&avoid=${u.card!.id}`)

    const form = await jsonOf(await load(withdraw.loader, receipt.anotherAccount, jar))
    expect(form.preset).toEqual({ amount: '4000.00', avoid: u.card!.id })
    expect(form.cards.map((c: BankCard) => c.id)).toContain(other.body.data.id)

    const paid = (await apiWithdraw(api, u, 200_000)).body.data
    await pay(paid.id)
    expect((await jsonOf(await load(detail.loader, `/wallet/withdraw/${paid.id}`, jar, { id: paid.id }))).anotherAccount).toBeNull()
  })

  it('an amount that does not read is ignored, never an error', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const jar = await signedInJar(u.token)
    for (const q of ['amount=abc', 'amount=-5', `amount=${'9'.repeat(60)}`, 'avoid=<script>']) {
      const res = await load(withdraw.loader, `/wallet/withdraw?${q}`, jar)
      expect(res.status).toBe(200)
      expect((await jsonOf(res)).preset).toEqual({ amount: null, avoid: null })
    }
  })
})
