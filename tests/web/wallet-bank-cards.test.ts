import { describe, expect, it } from 'vitest'
import type { BankCard } from '#contract/bank-cards'
import * as addBankCard from '~/routes/wallet.add-bank-card'
import * as bankCards from '~/routes/wallet.bank-cards'
import { useTestApi } from '../support/kit'
import { PIN, validNuban, walletUser } from '../support/wallet'
import { jsonOf, load, signedInJar, submit } from '../support/web'

/** /wallet/bank-cards and /wallet/add-bank-card through their loaders and actions, against the real api. */
const api = useTestApi()

const listOf = async (token: string) => (await api.get<BankCard[]>('/v1/bankCard/list', { token })).body.data

describe('/wallet/add-bank-card', () => {
  it('without a PIN sends the person to set one and come back (an info toast says why)', async () => {
    const u = await walletUser(api, { pin: null })
    const jar = await signedInJar(u.token)
    const res = await load(addBankCard.loader, '/wallet/add-bank-card', jar)
    expect(res).toHaveRedirect('/set-pin?redirectTo=%2Fwallet%2Fadd-bank-card')
    await expect(res).toSendToast({ type: 'info', message: 'Set your withdrawal PIN first' })
    // From Withdraw, the way back goes on to Withdraw afterwards.
    const fromWithdraw = await load(addBankCard.loader, '/wallet/add-bank-card?redirectTo=%2Fwallet%2Fwithdraw', jar)
    expect(fromWithdraw).toHaveRedirect(
      `/set-pin?${new URLSearchParams({ redirectTo: '/wallet/add-bank-card?redirectTo=%2Fwallet%2Fwithdraw' })}`,
    )
  })

  it('lists the banks by name; adds a valid NUBAN, masked, and goes to the list (or back to Withdraw)', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const screen = await jsonOf(await load(addBankCard.loader, '/wallet/add-bank-card', jar))
    const names = screen.banks.map((b: { name: string }) => b.name)
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)))
    expect(screen.banks).toContainEqual({ code: '058', name: 'Guaranty Trust Bank', nuban: 'dmb' })

    const number = validNuban('058')
    const res = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '058', accountNumber: number, accountName: 'Ada Obi', pin: PIN },
      jar,
    )
    expect(res).toHaveRedirect('/wallet/bank-cards')
    await expect(res).toSendToast({ type: 'success', message: 'Bank account added' })
    expect(await listOf(u.token)).toEqual([
      expect.objectContaining({ bankCode: '058', maskedNumber: `•••• ${number.slice(-4)}`, isDefault: true }),
    ])

    const back = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '044', accountNumber: validNuban('044'), accountName: 'Ada Obi', pin: PIN, redirectTo: '/wallet/withdraw' },
      jar,
    )
    expect(back).toHaveRedirect('/wallet/withdraw')
    const foreign = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '057', accountNumber: validNuban('057'), accountName: 'Ada Obi', pin: PIN, redirectTo: '//evil.example' },
      jar,
    )
    expect(foreign).toHaveRedirect('/wallet/bank-cards')
  })

  it('refuses a wrong check digit (the api knows the bank’s scheme) beside the number, keeping what was typed but the PIN', async () => {
    const u = await walletUser(api, { card: false })
    const number = validNuban('058')
    const wrong = number.slice(0, 9) + ((Number(number[9]) + 1) % 10)
    const res = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '058', accountNumber: wrong, accountName: 'Ada Obi', pin: PIN },
      await signedInJar(u.token),
    )
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error.accountNumber).toEqual(['This account number does not exist at this bank. Check the digits'])
    expect(reply.result.initialValue).toMatchObject({ bankCode: '058', accountNumber: wrong, accountName: 'Ada Obi' })
    expect(JSON.stringify(reply)).not.toContain(PIN)
    expect(await listOf(u.token)).toEqual([])
  })

  it.each([
    [{ pin: '999998' }, 'Wrong PIN. 4 tries left before PIN actions are locked for 30 minutes', ['pin']],
    [{ bankCode: '999', accountNumber: validNuban('999') }, 'We do not pay out to this bank yet. Choose another one', []],
  ])('shows the api’s refusal %j beside the form; the PIN is emptied only when it was the PIN', async (patch, message, refused) => {
    const u = await walletUser(api, { card: false })
    const form = { bankCode: '058', accountNumber: validNuban('058'), accountName: 'Ada Obi', pin: PIN, ...patch }
    const reply = await jsonOf(await submit(addBankCard.action, '/wallet/add-bank-card', form, await signedInJar(u.token)))
    expect(reply.result.error['']).toEqual([message])
    expect(reply.refused).toEqual(refused)
    expect(JSON.stringify(reply)).not.toContain(form.pin)
    expect(await listOf(u.token)).toEqual([])
  })

  it('the same account twice is refused; at five the screen sends the person back to the list', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const number = validNuban('033')
    const form = { bankCode: '033', accountNumber: number, accountName: 'Ada Obi', pin: PIN }
    expect(await submit(addBankCard.action, '/wallet/add-bank-card', form, jar)).toHaveRedirect('/wallet/bank-cards')
    const twice = await jsonOf(await submit(addBankCard.action, '/wallet/add-bank-card', form, jar))
    expect(twice.result.error['']).toEqual(['This bank account is already saved'])
    for (let i = 0; i < 3; i++) {
      await submit(addBankCard.action, '/wallet/add-bank-card', { ...form, accountNumber: validNuban('033') }, jar)
    }
    expect(await listOf(u.token)).toHaveLength(5)
    const full = await load(addBankCard.loader, '/wallet/add-bank-card', jar)
    expect(full).toHaveRedirect('/wallet/bank-cards')
    await expect(full).toSendToast({ type: 'info', message: 'You can keep at most 5 bank accounts. Remove one first' })
  })
})

describe('/wallet/bank-cards', () => {
  it('lists the accounts, masked; makes another the default', async () => {
    const u = await walletUser(api)
    const second = (
      await api.post<BankCard>(
        '/v1/bankCard/add',
        { bankCode: '044', accountNumber: validNuban('044'), accountName: 'Ada Obi', pin: PIN },
        { token: u.token },
      )
    ).body.data
    const jar = await signedInJar(u.token)
    const screen = await jsonOf(await load(bankCards.loader, '/wallet/bank-cards', jar))
    expect(screen.hasPin).toBe(true)
    expect(screen.cards.map((c: BankCard) => [c.id, c.isDefault])).toEqual(
      expect.arrayContaining([
        [u.card!.id, true],
        [second.id, false],
      ]),
    )
    const res = await submit(bankCards.action, '/wallet/bank-cards', { intent: 'default', id: second.id }, jar)
    expect(res).toHaveRedirect('/wallet/bank-cards')
    await expect(res).toSendToast({ type: 'success', message: 'Default bank account changed' })
    expect((await listOf(u.token)).find((c) => c.isDefault)?.id).toBe(second.id)
  })

  it('removes with the PIN; a wrong PIN is said at that account and never echoed', async () => {
    const u = await walletUser(api)
    const jar = await signedInJar(u.token)
    const wrong = await submit(bankCards.action, '/wallet/bank-cards', { intent: 'remove', id: u.card!.id, pin: '999998' }, jar)
    expect(wrong.status).toBe(400)
    const reply = await jsonOf(wrong)
    expect(reply).toMatchObject({ cardId: u.card!.id, intent: 'remove', refused: expect.arrayContaining(['pin']) })
    expect(reply.result.error['']).toEqual(['Wrong PIN. 4 tries left before PIN actions are locked for 30 minutes'])
    expect(JSON.stringify(reply)).not.toContain('999998')
    const short = await jsonOf(await submit(bankCards.action, '/wallet/bank-cards', { intent: 'remove', id: u.card!.id, pin: '12' }, jar))
    expect(short.result.error.pin).toEqual(['PIN is 6 digits'])
    expect(await listOf(u.token)).toHaveLength(1)

    const ok = await submit(bankCards.action, '/wallet/bank-cards', { intent: 'remove', id: u.card!.id, pin: PIN }, jar)
    expect(ok).toHaveRedirect('/wallet/bank-cards')
    await expect(ok).toSendToast({ type: 'success', message: 'Bank account removed' })
    expect(await listOf(u.token)).toEqual([])
  })

  it('another person’s account cannot be touched', async () => {
    const u = await walletUser(api)
    const other = await walletUser(api)
    const jar = await signedInJar(u.token)
    for (const intent of ['remove', 'default']) {
      const reply = await jsonOf(await submit(bankCards.action, '/wallet/bank-cards', { intent, id: other.card!.id, pin: PIN }, jar))
      expect(reply.result.error['']).toEqual(['This bank account was not found'])
    }
    expect(await listOf(other.token)).toHaveLength(1)
  })

  it('without a PIN: no accounts, and the way to set one', async () => {
    const u = await walletUser(api, { pin: null })
    expect(await jsonOf(await load(bankCards.loader, '/wallet/bank-cards', await signedInJar(u.token)))).toEqual({
      hasPin: false,
      cards: [],
    })
  })
})

describe('/wallet/add-bank-card: every bank and wallet (decision 039)', () => {
  it('offers Paystack’s codes for wallets and microfinance banks; `?bank=` is the search without JavaScript', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const screen = await jsonOf(await load(addBankCard.loader, '/wallet/add-bank-card?bank=%20opay%20', jar))
    expect(screen.query).toBe('opay')
    expect(screen.banks).toEqual(
      expect.arrayContaining([
        { code: '999992', name: 'OPay Digital Services Limited (OPay)', nuban: null },
        { code: '50211', name: 'Kuda Bank', nuban: 'ofi' },
        { code: '00103', name: 'Globus Bank', nuban: null },
      ]),
    )
  })

  it('a wallet account numbered by phone (OPay) is saved; a microfinance number with a wrong check digit is refused beside it', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const saved = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '999992', accountNumber: '8031234567', accountName: 'Ada Obi', pin: PIN },
      jar,
    )
    expect(saved).toHaveRedirect('/wallet/bank-cards')
    const good = validNuban('950211', '123456789')
    const wrong = good.slice(0, 9) + ((Number(good[9]) + 1) % 10)
    const res = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { bankCode: '50211', accountNumber: wrong, accountName: 'Ada Obi', pin: PIN },
      jar,
    )
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error.accountNumber).toEqual(['This account number does not exist at this bank. Check the digits'])
    expect(JSON.stringify(reply)).not.toContain(PIN)
    expect(await listOf(u.token)).toEqual([
      expect.objectContaining({ bankCode: '999992', bankName: 'OPay Digital Services Limited (OPay)' }),
    ])
  })
})
