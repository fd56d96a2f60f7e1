import { describe, expect, it } from 'vitest'
import * as desk from '~/ops/routes/ops.payouts'
import { staffJar } from '../support/console'
import { useTestApi } from '../support/kit'
import { walletUser, withdraw } from '../support/wallet'
import { jsonOf, load, submit } from '../support/web'

/** Paying by hand on the payout desk: the amount to send, and the account number shown only when a person asks. */
const api = useTestApi()

const rowOf = async (jar: Awaited<ReturnType<typeof staffJar>>['jar'], id: string) => {
  for (let page = 1; page <= 100; page++) {
    const shown = await jsonOf(await load(desk.loader, `/ops/payouts?status=pending&page=${page}`, jar))
    const found = shown.list.find((w: { id: string }) => w.id === id)
    if (found || shown.list.length === 0) return found
  }
}

describe('/ops/payouts: paying by hand', () => {
  it('the row carries the amount to send (amount less fee); the page never has the full number; the reveal form answers it, uncached', async () => {
    const { jar, staff } = await staffJar(api, 'payouts')
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 300_000)).body.data
    const number = (await api.db.selectFrom('bank_cards').select('account_number').where('id', '=', u.card!.id).executeTakeFirstOrThrow())
      .account_number

    const page = await load(desk.loader, '/ops/payouts', jar)
    expect(await page.clone().text()).not.toContain(number)
    expect(await rowOf(jar, w.id)).toMatchObject({ amount: 300_000, fee: 5_000, received: 295_000 })

    // A plain form post (no JavaScript needed): intent=reveal for one row.
    const revealed = await submit(desk.action, '/ops/payouts?index', { intent: 'reveal', id: w.id }, jar)
    expect(revealed.status).toBe(200)
    expect(revealed.headers.get('cache-control')).toBe('no-store')
    expect(await jsonOf(revealed)).toEqual({
      id: w.id,
      account: {
        withdrawalId: w.id,
        bankName: 'Guaranty Trust Bank',
        bankCode: '058',
        accountName: 'Ada Obi',
        accountNumber: number,
        amountToSend: 295_000,
        currency: 'NGN',
      },
    })
    const audited = await api.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'withdrawal.reveal_account')
      .where('target_id', '=', w.id)
      .execute()
    expect(audited).toEqual([{ actor: `staff:${staff.email}` }])
    // Asking again after the reveal: the page still does not carry it.
    expect(await (await load(desk.loader, '/ops/payouts', jar)).text()).not.toContain(number)
  })

  it('a reviewer cannot reveal (403); an unknown withdrawal is a refusal beside the desk, not a 500', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 200_000)).body.data
    const { jar: reviewer } = await staffJar(api, 'reviewer')
    expect((await submit(desk.action, '/ops/payouts', { intent: 'reveal', id: w.id }, reviewer)).status).toBe(403)
    const { jar } = await staffJar(api, 'payouts')
    const unknown = await submit(desk.action, '/ops/payouts', { intent: 'reveal', id: 'no-such' }, jar)
    expect(unknown.status).toBe(409)
    expect(await jsonOf(unknown)).toEqual({ id: 'no-such', message: 'This withdrawal was not found' })
    const extra = await submit(desk.action, '/ops/payouts', { intent: 'reveal', id: w.id, accountNumber: '1' }, jar)
    expect(extra.status).toBe(400)
  })
})
