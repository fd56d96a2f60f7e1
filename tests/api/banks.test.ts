import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { accountFitsBank, isPhoneShaped, nubanCheckDigit, searchBanks, type Bank } from '#contract/bank-cards'
import { Refusals } from '#contract/refusals'
import { migrations } from '../../api/db/migrate'
import { banksFor, resetBankList } from '../../api/lib/banks'
import { bankAccountKey } from '../../api/models/reward-bank-accounts'
import { needsNameRecheck, recheckName, recipientFor, refreshBanks } from '../../api/services/banks'
import { runPayoutsOnce } from '../../api/services/payouts'
import { NAME_CHANGED_REASON } from '../../api/services/payouts/common'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, fakeBank, startFakePaystack } from '../support/paystack-fake'
import { PIN, walletInfo, walletUser, withdraw } from '../support/wallet'

/**
 * Every bank and wallet a seller uses (decision 039): Paystack's list, stored and refreshed,
 * with Paystack's codes; NUBAN checked only by a scheme the bank is known to use; name enquiry
 * that tells an unreachable bank from an unknown account; the transfer recipient kept on the
 * account; the name asked again before a payout. On SQLite and PostgreSQL (TEST_DB).
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
afterAll(async () => {
  resetBankList()
  await fake.close()
})

const serial = () => String(Math.floor(Math.random() * 1e9)).padStart(9, '0')
const nuban = (code: string, s = serial()) => s + nubanCheckDigit(code, s)
const calls = (route: string) => fake.calls.filter((c) => c.route === route).length
const banks = async (t: ReturnType<typeof useTestApi>) => (await t.get<Bank[]>('/v1/bank/list')).body.data

describe('the bank list', () => {
  it('the committed list has Paystack’s codes: Globus 00103, OPay, PalmPay, Moniepoint, Kuda', async () => {
    const list = await banks(manual)
    const code = (name: string) => list.find((b) => b.name.startsWith(name))?.code
    expect(code('Globus')).toBe('00103')
    expect(code('OPay')).toBe('999992')
    expect(code('PalmPay')).toBe('999991')
    expect(code('Moniepoint')).toBe('50515')
    expect(code('Kuda')).toBe('50211')
    expect(code('Guaranty Trust')).toBe('058')
    expect(list.length).toBeGreaterThan(40)
  })

  it('is refreshed from Paystack’s GET /bank, every page, and a bank it stops listing leaves the picker', async () => {
    const extra = Array.from({ length: 130 }, (_, i) => fakeBank(`Test Microfinance Bank ${i}`, String(60000 + i)))
    fake.banks.push(...extra)
    const before = fake.bankListCalls.length
    const listed = await refreshBanks(api.deps)
    expect(listed).toBe(fake.banks.length)
    const asked = fake.bankListCalls.slice(before)
    expect(asked.length).toBe(Math.ceil(fake.banks.length / 100))
    expect(asked[0].get('currency')).toBe('NGN')
    expect(asked[0].get('country')).toBe('nigeria')
    expect(asked[0].get('perPage')).toBe('100')
    expect((await banks(api)).some((b) => b.code === '60129')).toBe(true)
    const stored = await api.db.selectFrom('banks').selectAll().where('code', '=', '60129').executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ currency: 'NGN', name: 'Test Microfinance Bank 129', type: 'nuban', active: 1 })

    fake.banks = fake.banks.filter((b) => b.code !== '60129')
    await refreshBanks(api.deps)
    expect((await banks(api)).some((b) => b.code === '60129')).toBe(false)
    expect(banksFor('NGN').some((b) => b.code === '999992')).toBe(true)
  })

  it('a list Paystack cannot give changes nothing', async () => {
    const count = (await banks(api)).length
    fake.trouble('list', { kind: '5xx' })
    fake.banks = []
    await expect(refreshBanks(api.deps)).resolves.toBe(0)
    expect((await banks(api)).length).toBe(count)
    fake.banks = (await import('../../api/lib/banks-ng.json')).default.map((b) => fakeBank(b.name, b.code))
    await refreshBanks(api.deps)
  })
})

describe('the account number, by kind of institution', () => {
  it('a deposit-money bank: the 3-digit NUBAN check refuses a wrong digit before any call', async () => {
    const u = await walletUser(api, { card: false })
    const good = nuban('058')
    const bad = good.slice(0, 9) + ((Number(good[9]) + 1) % 10)
    const before = calls('resolve')
    const res = await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber: bad }, { token: u.token })
    expect(res.status).toBe(400)
    expect(calls('resolve')).toBe(before)
  })

  it('a microfinance bank: "9" + its 5-digit code, or a phone-number account', async () => {
    const u = await walletUser(api, { card: false })
    for (const accountNumber of [nuban('950211'), '8031234567']) {
      const res = await api.post('/v1/bankCard/resolve', { bankCode: '50211', accountNumber }, { token: u.token })
      expect(res.body).toMatchObject({ code: 200, data: { source: 'bank' } })
    }
    // Not a phone number (starts with 1), with a wrong check digit: refused before any call.
    const good = nuban('950211', `1${serial().slice(1)}`)
    const bad = good.slice(0, 9) + ((Number(good[9]) + 1) % 10)
    const before = calls('resolve')
    expect((await api.post('/v1/bankCard/resolve', { bankCode: '50211', accountNumber: bad }, { token: u.token })).status).toBe(400)
    expect(calls('resolve')).toBe(before)
  })

  it('a wallet whose scheme is unknown (OPay): never refused locally, name enquiry decides', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const before = calls('resolve')
    const res = await api.post('/v1/bankCard/add', { bankCode: '999992', accountNumber: '1234567890', pin: PIN }, { token: u.token })
    expect(res.body).toMatchObject({ code: 200, data: { bankCode: '999992', bankName: 'OPay Digital Services Limited (OPay)' } })
    expect(calls('resolve')).toBe(before + 1)
  })

  it('property: a number fits a DMB exactly when its check digit is right; unknown schemes fit any 10 digits', () => {
    const dmbs = banksFor('NGN').filter((b) => b.nuban === 'dmb')
    fc.assert(
      fc.property(fc.constantFrom(...dmbs), fc.stringMatching(/^\d{9}$/), fc.integer({ min: 0, max: 9 }), (bank, s, d) => {
        expect(accountFitsBank(bank, s + d)).toBe(d === nubanCheckDigit(bank.code, s))
        expect(accountFitsBank({ code: bank.code, nuban: null }, s + d)).toBe(true)
      }),
    )
    fc.assert(
      fc.property(fc.constantFrom('50211', '50515'), fc.stringMatching(/^\d{9}$/), (code, s) => {
        expect(accountFitsBank({ code, nuban: 'ofi' }, s + nubanCheckDigit(`9${code}`, s))).toBe(true)
      }),
    )
    fc.assert(
      fc.property(fc.stringMatching(/^(70|80|81|90|91)\d{8}$/), (n) => {
        expect(isPhoneShaped(n)).toBe(true)
      }),
    )
  })

  it('property: search finds a bank by any prefix of its name, and only banks holding every word', () => {
    const list = banksFor('NGN')
    fc.assert(
      fc.property(fc.constantFrom(...list), fc.integer({ min: 1, max: 12 }), (bank, n) => {
        const q = bank.name.slice(0, n)
        expect(searchBanks(list, q)).toContain(bank)
      }),
    )
    expect(searchBanks(list, 'uba')[0].code).toBe('033')
    expect(searchBanks(list, 'first mon').map((b) => b.code)).toEqual(['214'])
    expect(searchBanks(list, 'moniepoint').map((b) => b.code)).toEqual(['50515'])
  })
})

describe('name enquiry', () => {
  it('a bank that cannot be reached is said so, not “the bank does not know this account”', async () => {
    const u = await walletUser(api, { card: false })
    const accountNumber = nuban('058')
    fake.unreachableBanks.add('058')
    try {
      const res = await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })
      expect(res.body).toMatchObject(Refusals.BANK_UNREACHABLE)
      expect(res.body.msg).toBe('We could not reach your bank right now; try again in a minute')
    } finally {
      fake.unreachableBanks.delete('058')
    }
    fake.trouble('resolve', { kind: '5xx', status: 502 }, { kind: 'timeout' })
    for (let i = 0; i < 2; i++)
      expect((await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })).body).toMatchObject(
        Refusals.BANK_UNREACHABLE,
      )
    fake.accounts.set(`058:${accountNumber}`, null)
    expect((await api.post('/v1/bankCard/resolve', { bankCode: '058', accountNumber }, { token: u.token })).body).toMatchObject(
      Refusals.ACCOUNT_NOT_RESOLVED,
    )
  })

  it('the fake is strict: an unknown bank code is Paystack’s 422 invalid_bank_code', async () => {
    const res = await fetch(`${fake.url}/bank/resolve?account_number=0123456789&bank_code=999`, {
      headers: { authorization: `Bearer ${FAKE_PAYSTACK_SECRET}` },
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ status: false, code: 'invalid_bank_code' })
    const missing = await fetch(`${fake.url}/bank/resolve?bank_code=058`, { headers: { authorization: `Bearer ${FAKE_PAYSTACK_SECRET}` } })
    expect(missing.status).toBe(400)
  })
})

describe('the transfer recipient and the name before a payout', () => {
  it('is made when the account is saved and kept; the worker’s recipientFor asks nothing more', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const before = calls('recipient')
    const res = await api.post('/v1/bankCard/add', { bankCode: '50515', accountNumber: nuban('950515'), pin: PIN }, { token: u.token })
    expect(res.body.code).toBe(200)
    const row = await api.db.selectFrom('bank_cards').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    expect(row.recipient_code).toMatch(/^RCP_/)
    expect(row.name_checked_at).not.toBeNull()
    expect(calls('recipient')).toBe(before + 1)
    expect(await recipientFor(api.deps, row)).toBe(row.recipient_code)
    expect(calls('recipient')).toBe(before + 1)
  })

  it('a recipient Paystack cannot make now is made on first use', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    fake.trouble('recipient', { kind: '5xx' })
    expect(
      (await api.post('/v1/bankCard/add', { bankCode: '058', accountNumber: nuban('058'), pin: PIN }, { token: u.token })).body.code,
    ).toBe(200)
    const row = await api.db.selectFrom('bank_cards').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    expect(row.recipient_code).toBeNull()
    const code = await recipientFor(api.deps, row)
    expect(code).toMatch(/^RCP_/)
    expect(
      (await api.db.selectFrom('bank_cards').select('recipient_code').where('id', '=', row.id).executeTakeFirstOrThrow()).recipient_code,
    ).toBe(code)
  })

  it('the name is asked again when the account was named long ago or the amount is large', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const accountNumber = nuban('058')
    await api.post('/v1/bankCard/add', { bankCode: '058', accountNumber, pin: PIN }, { token: u.token })
    const row = await api.db.selectFrom('bank_cards').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    const { nameRecheckMs, nameRecheckAmount } = api.deps.config.banks
    expect(needsNameRecheck(api.deps, row, 1_000)).toBe(false)
    expect(needsNameRecheck(api.deps, row, nameRecheckAmount)).toBe(true)
    expect(needsNameRecheck({ ...api.deps, now: () => row.name_checked_at! + nameRecheckMs }, row, 1_000)).toBe(true)
    expect(needsNameRecheck(manual.deps, row, nameRecheckAmount)).toBe(false)

    expect(await recheckName(api.deps, row)).toBe('same')
    fake.accounts.set(`058:${accountNumber}`, 'SOMEONE ELSE')
    expect(await recheckName(api.deps, row)).toBe('changed')
    fake.unreachableBanks.add('058')
    expect(await recheckName(api.deps, row)).toBe('unknown')
    fake.unreachableBanks.delete('058')
    fake.accounts.set(`058:${accountNumber}`, null)
    expect(await recheckName(api.deps, row)).toBe('gone')
  })
})

describe('the payout worker and the kept account', () => {
  const cardOf = (userId: string) => api.db.selectFrom('bank_cards').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
  const statusOf = async (id: string) =>
    (await api.db.selectFrom('withdrawals').select(['status', 'reason']).where('id', '=', id).executeTakeFirstOrThrow()) as {
      status: string
      reason: string | null
    }

  it('sends to the recipient kept on the account: no recipient call a payout', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: 'Adaeze Obi' })
    const kept = (await cardOf(u.userId)).recipient_code
    expect(kept).toMatch(/^RCP_/)
    const before = calls('recipient')
    const w = (await withdraw(api, u, 200_000)).body.data
    await runPayoutsOnce(api.deps)
    expect(fake.transfers.get(w.id)?.recipient.recipient_code).toBe(kept)
    expect(calls('recipient')).toBe(before)
    expect((await statusOf(w.id)).status).toBe('processing')
  })

  it('a kept recipient Paystack no longer knows is forgotten and a new one made; the person is not blamed', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: 'Adaeze Obi' })
    const card = await cardOf(u.userId)
    await api.db.updateTable('bank_cards').set({ recipient_code: 'RCP_from_another_integration' }).where('id', '=', card.id).execute()
    const w = (await withdraw(api, u, 200_000)).body.data
    await runPayoutsOnce(api.deps)
    expect(fake.transfers.has(w.id)).toBe(false)
    expect((await statusOf(w.id)).status).toBe('pending')
    expect((await cardOf(u.userId)).recipient_code).toBeNull()
    await runPayoutsOnce(api.deps)
    expect(fake.transfers.get(w.id)?.recipient.recipient_code).toMatch(/^RCP_058/)
    expect((await statusOf(w.id)).status).toBe('processing')
  })

  it('an account named long ago is named again first: another name fails the payout before anything is sent, the money back', async () => {
    const u = await walletUser(api, { balance: 1_000_000, userName: 'Adaeze Obi' })
    const card = await cardOf(u.userId)
    await api.db.updateTable('bank_cards').set({ name_checked_at: 0 }).where('id', '=', card.id).execute()
    const w = (await withdraw(api, u, 200_000)).body.data

    // The bank cannot be reached: nothing is sent, nothing fails; asked again later.
    fake.unreachableBanks.add('058')
    await runPayoutsOnce(api.deps)
    fake.unreachableBanks.delete('058')
    expect(fake.transfers.has(w.id)).toBe(false)
    expect((await statusOf(w.id)).status).toBe('pending')

    fake.accounts.set(`058:${card.account_number}`, 'SOMEONE ELSE')
    await api.clock.advance(3_600_000 * 24)
    await runPayoutsOnce(api.deps)
    expect(fake.transfers.has(w.id)).toBe(false)
    expect(await statusOf(w.id)).toEqual({ status: 'failed', reason: NAME_CHANGED_REASON })
    expect((await walletInfo(api, u.token)).balance).toBe(1_000_000)
  })
})

describe('accounts saved with the old codes', () => {
  it('Globus Bank saved as 103 moves to Paystack’s 00103 and keeps its name', async () => {
    const u = await walletUser(manual, { card: false })
    const added = await manual.post(
      '/v1/bankCard/add',
      { bankCode: '00103', accountNumber: '0123456789', accountName: 'Ada Obi', pin: PIN },
      { token: u.token },
    )
    expect(added.body.code).toBe(200)
    await migrations['0017_banks'].down!(manual.db)
    const old = await manual.db.selectFrom('bank_cards').select('bank_code').where('user_id', '=', u.userId).executeTakeFirstOrThrow()
    expect(old.bank_code).toBe('103')
    await migrations['0017_banks'].up(manual.db)
    const list = await manual.get<{ bankCode: string; bankName: string }[]>('/v1/bankCard/list', { token: u.token })
    expect(list.body.data).toMatchObject([{ bankCode: '00103', bankName: 'Globus Bank' }])
    // Rewards once per bank account: the account is the same one under either code.
    expect(bankAccountKey('k', { bank_code: '00103', account_number: '0123456789' })).toBe(
      bankAccountKey('k', { bank_code: '103', account_number: '0123456789' }),
    )
  })
})
