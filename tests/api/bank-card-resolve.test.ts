import { afterAll, describe, expect, it } from 'vitest'
import { bankCardsApi } from '#contract/bank-cards'
import { Refusals } from '#contract/refusals'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { PIN, validNuban, walletInfo, walletUser, withdraw } from '../support/wallet'

/**
 * The account holder's name: with a payout provider the bank's name is resolved, shown and saved
 * (a typed one is ignored); an account the bank does not know and a provider that is down are
 * refused with nothing saved; a name far from the profile's sends payouts to the payout desk.
 * With manual payouts no provider is ever called. On SQLite and PostgreSQL (TEST_DB).
 */
const fake = await startFakePaystack()
const payouts = {
  paystackSecretKey: FAKE_PAYSTACK_SECRET,
  paystackBaseUrl: fake.url,
  autoPayoutMax: 1e12,
  pollSeconds: 60,
  requestTimeoutMs: 1_500,
  leaseMs: 10_000,
}
const api = useTestApi({ web: false, config: { payouts: { ...payouts, provider: 'paystack' } } })
const manual = useTestApi({ web: false, config: { payouts: { ...payouts, provider: 'manual' } } })
afterAll(() => fake.close())

const resolveCalls = () => fake.calls.filter((c) => c.route === 'resolve').length

describe('with Paystack', () => {
  it('resolves an account to the name the bank holds', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const accountNumber = validNuban('058')
    fake.accounts.set(`058:${accountNumber}`, 'ADAEZE N. OBI')
    const res = await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })
    expect(res.body).toMatchObject({ code: 200, data: { source: 'bank', accountName: 'ADAEZE N. OBI' } })
    expect(bankCardsApi.resolve.data.parse(res.body.data)).toBeTruthy()
  })

  it('saves the bank’s name and ignores a typed one', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const accountNumber = validNuban('058')
    const res = await api.post(
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber, accountName: 'Someone Else', pin: PIN },
      { token: u.token },
    )
    expect(res.body).toMatchObject({ code: 200, data: { accountName: 'ADAEZE OBI' } })
    const row = await api.db
      .selectFrom('bank_cards')
      .selectAll()
      .where('id', '=', (res.body.data as { id: string }).id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ account_name: 'ADAEZE OBI', name_from_bank: 1, name_flagged: 0 })
  })

  it('an account the bank does not know is refused, and nothing is saved', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const accountNumber = validNuban('058')
    fake.accounts.set(`058:${accountNumber}`, null)
    expect((await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })).body).toMatchObject(
      Refusals.ACCOUNT_NOT_RESOLVED,
    )
    expect((await api.post('/v1/bankCard/add', { bankCode: '058', accountNumber, pin: PIN }, { token: u.token })).body).toMatchObject(
      Refusals.ACCOUNT_NOT_RESOLVED,
    )
    expect((await walletInfo(api, u.token)).bankCardCount).toBe(0)
  })

  it('a provider that is down or slow is a clear “try again”: nothing saved, no PIN try spent', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const accountNumber = validNuban('058')
    fake.trouble('resolve', { kind: '5xx', status: 503 }, { kind: 'timeout' })
    expect((await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })).body).toMatchObject(
      Refusals.BANK_UNREACHABLE,
    )
    expect((await api.post('/v1/bankCard/add', { bankCode: '058', accountNumber, pin: '999998' }, { token: u.token })).body).toMatchObject(
      Refusals.BANK_UNREACHABLE,
    )
    const info = await walletInfo(api, u.token)
    expect(info.bankCardCount).toBe(0)
    expect(info.pin.triesLeft).toBe(5)
  })

  it('a wrong check digit is refused before any provider call', async () => {
    const u = await walletUser(api, { card: false })
    const good = validNuban('058')
    const bad = good.slice(0, 9) + ((Number(good[9]) + 1) % 10)
    const before = resolveCalls()
    const res = await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber: bad }, { token: u.token })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('accountNumber: This account number does not exist at this bank. Check the digits')
    expect(resolveCalls()).toBe(before)
  })

  it('needs a token', async () => {
    expect((await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber: validNuban('058') })).status).toBe(401)
  })

  it('a holder’s name far from the profile’s name is flagged: its payouts wait for the payout desk', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: 'Tunde Bakare' })
    const row = await api.db.selectFrom('bank_cards').selectAll().where('id', '=', u.card!.id).executeTakeFirstOrThrow()
    expect(row.name_flagged).toBe(1)
    const w = (await withdraw(api, u, 200_000)).body.data
    const stored = await api.db.selectFrom('withdrawals').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow()
    expect(stored.payout_next_at).toBeNull()
    expect(w.expectedBy - w.createdAt).toBeGreaterThan(60 * 60_000)
  })
})

describe('with manual payouts', () => {
  it('no provider is ever called: the name is typed, as before', async () => {
    const before = fake.calls.length
    const u = await walletUser(manual, { card: false })
    const accountNumber = validNuban('058')
    expect((await manual.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })).body.data).toEqual({
      source: 'typed',
      accountName: null,
    })
    const missing = await manual.post('/v1/bankCard/add', { bankCode: '058', accountNumber, pin: PIN }, { token: u.token })
    expect(missing.status).toBe(400)
    expect(missing.body.msg).toBe('accountName: Account name is required')
    const added = await manual.post(
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber, accountName: 'Ada Obi', pin: PIN },
      { token: u.token },
    )
    expect(added.body).toMatchObject({ code: 200, data: { accountName: 'Ada Obi' } })
    expect(fake.calls.length).toBe(before)
  })
})
