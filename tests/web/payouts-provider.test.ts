import { afterAll, describe, expect, it } from 'vitest'
import * as desk from '~/ops/routes/ops.payouts'
import * as reconcile from '~/ops/routes/ops.payouts_.reconcile'
import * as addBankCard from '~/routes/wallet.add-bank-card'
import * as withdrawScreen from '~/routes/wallet.withdraw'
import * as withdrawDetail from '~/routes/wallet.withdraw_.$id'
import { runPayoutsOnce } from '../../api/services/payouts'
import { staffJar, staffToastOf } from '../support/console'
import { useTestApi } from '../support/kit'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { PIN, validNuban, walletUser, withdraw } from '../support/wallet'
import { jsonOf, load, signedInJar, submit } from '../support/web'

/**
 * Payouts through a provider (the fake Paystack), seen from the web: Add Bank Card names the
 * account through the bank before saving, Withdraw promises minutes, the receipt shows the
 * provider's steps, and the payout desk approves what is over the line.
 */
const AUTO_MAX = 1_000_000
const fake = await startFakePaystack()
const api = useTestApi({
  config: {
    payouts: {
      provider: 'paystack',
      paystackSecretKey: FAKE_PAYSTACK_SECRET,
      paystackBaseUrl: fake.url,
      autoPayoutMax: AUTO_MAX,
      pollSeconds: 60,
      requestTimeoutMs: 1_500,
      leaseMs: 10_000,
    },
  },
})
afterAll(() => fake.close())

const listOf = async (token: string) => (await api.get<{ accountName: string }[]>('/v1/bankCard/list', { token })).body.data

describe('/wallet/add-bank-card with a payout provider', () => {
  it('the screen knows names are resolved; resolve shows the bank’s name, then the PIN saves that name (a typed one is ignored)', async () => {
    const u = await walletUser(api, { card: false, userName: 'Adaeze Obi' })
    const jar = await signedInJar(u.token)
    expect(await jsonOf(await load(addBankCard.loader, '/wallet/add-bank-card', jar))).toMatchObject({ resolvesNames: true })
    const number = validNuban('058')
    const step1 = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { intent: 'resolve', bankCode: '058', accountNumber: number },
      jar,
    )
    expect(step1.status).toBe(200)
    expect(await jsonOf(step1)).toMatchObject({ resolved: { bankCode: '058', accountNumber: number, accountName: 'ADAEZE OBI' } })
    expect(await listOf(u.token)).toEqual([])

    const step2 = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { intent: 'add', bankCode: '058', accountNumber: number, accountName: 'Somebody Else', pin: PIN },
      jar,
    )
    expect(step2).toHaveRedirect('/wallet/bank-cards')
    expect(await listOf(u.token)).toEqual([expect.objectContaining({ accountName: 'ADAEZE OBI' })])
  })

  it('without a PIN the save step asks for it; nothing is saved', async () => {
    const u = await walletUser(api, { card: false })
    const res = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { intent: 'add', bankCode: '058', accountNumber: validNuban('058') },
      await signedInJar(u.token),
    )
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.pin).toEqual(['Enter your withdrawal PIN'])
    expect(await listOf(u.token)).toEqual([])
  })

  it('an account the bank does not know is a clear refusal; nothing is saved', async () => {
    const u = await walletUser(api, { card: false })
    const number = validNuban('058')
    fake.accounts.set(`058:${number}`, null)
    const res = await submit(
      addBankCard.action,
      '/wallet/add-bank-card',
      { intent: 'resolve', bankCode: '058', accountNumber: number },
      await signedInJar(u.token),
    )
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error['']).toEqual(['The bank does not know this account number. Check the bank and the digits'])
    expect(reply.resolved).toBeNull()
    expect(await listOf(u.token)).toEqual([])
  })

  it('a bank that cannot be reached (Paystack answers 503) is said so, at either step; nothing is saved and no PIN try is spent', async () => {
    const u = await walletUser(api, { card: false })
    const jar = await signedInJar(u.token)
    const number = validNuban('058')
    fake.trouble('resolve', { kind: '5xx', status: 503 }, { kind: '5xx', status: 503 })
    for (const form of [
      { intent: 'resolve', bankCode: '058', accountNumber: number } as Record<string, string>,
      { intent: 'add', bankCode: '058', accountNumber: number, pin: '999998' },
    ]) {
      const res = await submit(addBankCard.action, '/wallet/add-bank-card', form, jar)
      expect(res.status).toBe(400)
      expect((await jsonOf(res)).result.error['']).toEqual(['We could not reach your bank right now; try again in a minute'])
    }
    expect(await listOf(u.token)).toEqual([])
    expect((await api.get<{ pin: { triesLeft: number } }>('/v1/wallet/info', { token: u.token })).body.data.pin.triesLeft).toBe(5)
  })
})

describe('Withdraw and its receipt with automatic payouts', () => {
  it('wallet info carries the mode and the line; the receipt shows sent with the transfer code, then paid with the session id', async () => {
    const u = await walletUser(api, { balance: 2_000_000, userName: 'Adaeze Obi' })
    const jar = await signedInJar(u.token)
    const screen = await jsonOf(await load(withdrawScreen.loader, '/wallet/withdraw', jar))
    expect(screen.info.payouts).toEqual({ mode: 'automatic', autoPayoutMax: AUTO_MAX, automaticMinutes: 15, resolvesNames: true })
    // When the money arrives on either side of the line, said by the loader (the screen picks one by the amount typed).
    expect(screen.promises).toEqual({
      upTo: AUTO_MAX,
      within: { promiseMs: 15 * 60_000, promise: 'Sent at once: usually in your bank within 15 minutes.' },
      above: { promiseMs: 24 * 3_600_000, promise: expect.stringMatching(/^Over ₦[\d,.]+ a person approves the payout first\.$/) },
    })
    const w = (await withdraw(api, u, 500_000)).body.data
    expect(w.expectedBy - w.createdAt).toBe(15 * 60_000)
    await runPayoutsOnce(api.deps)
    const sent = (await jsonOf(await load(withdrawDetail.loader, `/wallet/withdraw/${w.id}`, jar, { id: w.id }))).withdrawal
    expect(sent.status).toBe('processing')
    expect(sent.transferCode).toMatch(/^TRF_/)
    expect(sent.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'processing'])
    await fake.settle(w.id, 'success', { webhooks: 0 })
    fake.transfers.get(w.id)!.session = { provider: 'nip', id: '1'.repeat(30) }
    await api.db.updateTable('withdrawals').set({ payout_next_at: 0 }).where('id', '=', w.id).execute()
    await runPayoutsOnce(api.deps)
    const paid = (await jsonOf(await load(withdrawDetail.loader, `/wallet/withdraw/${w.id}`, jar, { id: w.id }))).withdrawal
    expect(paid).toMatchObject({ status: 'success', sessionId: '1'.repeat(30) })
    expect(paid.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'processing', 'success'])
  })
})

describe('/ops/payouts with a provider', () => {
  it('shows the provider’s side; over the line waits for approval, and the desk approves it once', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const u = await walletUser(api, { balance: 3_000_000, userName: 'Adaeze Obi' })
    const big = (await withdraw(api, u, AUTO_MAX + 100_000)).body.data
    const page = await jsonOf(await load(desk.loader, '/ops/payouts', jar))
    const row = page.list.find((w: { id: string }) => w.id === big.id)
    expect(row.payout).toMatchObject({ provider: 'paystack', awaitingApproval: true, attempts: 0, sentAt: null })
    // An operator cannot pay an automatic payout by hand.
    const byHand = await submit(desk.action, '/ops/payouts', { intent: 'processing', id: big.id }, jar)
    expect(byHand.status).toBe(409)
    expect((await jsonOf(byHand)).id).toBe(big.id)

    const approved = await submit(desk.action, '/ops/payouts', { intent: 'approve', id: big.id }, jar)
    expect(approved).toHaveRedirect('/ops/payouts')
    expect(await staffToastOf(approved)).toMatchObject({ message: 'Approved: the payout is sent next' })
    const twice = await submit(desk.action, '/ops/payouts', { intent: 'approve', id: big.id }, jar)
    expect(twice.status).toBe(409)
    expect((await jsonOf(twice)).message).toBe('This withdrawal is not waiting for approval')

    await runPayoutsOnce(api.deps)
    const processing = await jsonOf(await load(desk.loader, '/ops/payouts?status=processing', jar))
    const sent = processing.list.find((w: { id: string }) => w.id === big.id)
    expect(sent.payout).toMatchObject({ awaitingApproval: false, attempts: 1, state: 'pending' })
    expect(sent.transferCode).toMatch(/^TRF_/)
    expect(fake.transferCalls.filter((c) => c.reference === big.id)).toHaveLength(1)
  })

  it('a holder name far from the profile’s is flagged to the desk', async () => {
    const { jar } = await staffJar(api, 'payouts')
    const u = await walletUser(api, { card: false, balance: 1_000_000, userName: 'Adaeze Obi' })
    const number = validNuban('058')
    fake.accounts.set(`058:${number}`, 'MUSA BELLO')
    const added = await api.post<{ id: string }>(
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber: number, pin: PIN },
      { token: u.token },
    )
    const w = (await withdraw(api, { ...u, card: added.body.data as never }, 200_000)).body.data
    const row = (await jsonOf(await load(desk.loader, '/ops/payouts', jar))).list.find((x: { id: string }) => x.id === w.id)
    expect(row).toMatchObject({ nameFlagged: true, userName: 'Adaeze Obi', bankCard: { accountName: 'MUSA BELLO' } })
  })

  it('reconcile lists every difference for the day', async () => {
    const { jar } = await staffJar(api, 'payouts')
    // Today in the wallet's time zone, as the api counts days (not UTC's date, which differs for an hour a night in Lagos).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: api.deps.config.wallet.timeZone }).format(api.clock.now())
    const res = await load(reconcile.loader, `/ops/payouts/reconcile?date=${day}`, jar)
    expect(res.status).toBe(200)
    const page = await jsonOf(res)
    expect(page.report).toMatchObject({ date: day, provider: 'paystack' })
    expect(page.report.checked).toBeGreaterThan(0)
  })
})
