import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { opsMoneyApi } from '#contract/ops/money'
import { Refusals } from '#contract/refusals'
import type { TestApi } from '../support/api'
import { newEmail, useTestApi } from '../support/kit'
import { admin, adjust, PIN, validNuban, walletInfo, withdraw, type WalletUser } from '../support/wallet'

/**
 * Task rewards pay once per person, and a bank account is a person: throw-away accounts that save
 * one bank account earn its rewards once, rewards claimed before the bank account was saved stay
 * in the wallet, and operators see the accounts that share a bank account (SQLite and PostgreSQL).
 */
const api = useTestApi({ web: false })

/** A sign-up through the api from `address`, with a PIN set. */
async function signUp(target: TestApi, address: string): Promise<WalletUser> {
  const email = newEmail('farm')
  const headers = { 'x-forwarded-for': address }
  expect((await target.post('/auth/sendEmailCode', { email, type: 1 }, { headers })).body.code).toBe(Code.OK)
  const reg = await target.post<string>(
    '/auth/register',
    { email, password: 'a fine passphrase 42', verifyCode: target.lastCode(email, 1) },
    { headers },
  )
  const token = reg.body.data
  expect((await target.post('/v1/user/setPin', { pin: PIN }, { token })).body.code).toBe(Code.OK)
  const me = await target.get<{ userInfo: { userId: string } }>('/v1/user/index', { token })
  return { userId: me.body.data.userInfo.userId, token, email }
}

async function saveBankAccount(target: TestApi, u: WalletUser, accountNumber: string) {
  const res = await target.post<WalletUser['card']>(
    '/v1/bankCard/add',
    { bankCode: '058', accountNumber, accountName: 'Ada Obi', pin: PIN },
    { token: u.token },
  )
  expect(res.body.code).toBe(Code.OK)
  u.card = res.body.data
}

const claim = (target: TestApi, u: WalletUser, taskId: string) => target.post('/v1/user/getTaskReward', { taskId }, { token: u.token })

describe('three throw-away accounts with one bank account', () => {
  it('the first earns both sign-up rewards; the others earn nothing and are told why', async () => {
    const shared = validNuban('058')
    const [a, b, c] = [
      await signUp(api, '2001:db8:f00:1::1'),
      await signUp(api, '2001:db8:f00:2::1'),
      await signUp(api, '2001:db8:f00:3::1'),
    ]
    for (const u of [a, b, c]) await saveBankAccount(api, u, shared)
    expect((await claim(api, a, 'set_pin')).body.code).toBe(Code.OK)
    expect((await claim(api, a, 'add_bank_card')).body.code).toBe(Code.OK)
    for (const u of [b, c]) {
      for (const task of ['set_pin', 'add_bank_card']) {
        const res = await claim(api, u, task)
        expect(res.body).toEqual({ code: Refusals.REWARD_BANK_ACCOUNT_USED.code, msg: Refusals.REWARD_BANK_ACCOUNT_USED.msg, data: null })
      }
      expect(await walletInfo(api, u.token)).toMatchObject({ balance: 0, frozen: 0 })
    }
    const claims = await api.db.selectFrom('task_claims').select('user_id').where('user_id', 'in', [a.userId, b.userId, c.userId]).execute()
    expect(claims.map((r) => r.user_id)).toEqual([a.userId, a.userId])
  })

  it('a bank account removed and saved on another account is the same bank account', async () => {
    const shared = validNuban('058')
    const a = await signUp(api, '198.51.100.31')
    await saveBankAccount(api, a, shared)
    expect((await claim(api, a, 'add_bank_card')).body.code).toBe(Code.OK)
    expect((await api.post('/v1/bankCard/delete', { id: a.card!.id, pin: PIN }, { token: a.token })).body.code).toBe(Code.OK)
    const b = await signUp(api, '198.51.100.32')
    await saveBankAccount(api, b, shared)
    expect((await claim(api, b, 'add_bank_card')).body.code).toBe(Refusals.REWARD_BANK_ACCOUNT_USED.code)
  })

  it('claimed in parallel by three accounts, one bank account pays one account', async () => {
    const shared = validNuban('058')
    const people = [await signUp(api, '198.51.100.41'), await signUp(api, '198.51.100.42'), await signUp(api, '198.51.100.43')]
    for (const u of people) await saveBankAccount(api, u, shared)
    const results = await Promise.all(people.flatMap((u) => [claim(api, u, 'set_pin'), claim(api, u, 'add_bank_card')]))
    expect(results.filter((r) => r.body.code === Code.OK)).toHaveLength(2)
    expect(results.filter((r) => r.body.code === Refusals.REWARD_BANK_ACCOUNT_USED.code)).toHaveLength(4)
    const paid = await api.db
      .selectFrom('task_claims')
      .select('user_id')
      .where(
        'user_id',
        'in',
        people.map((u) => u.userId),
      )
      .execute()
    expect(new Set(paid.map((r) => r.user_id)).size).toBe(1)
  })
})

describe('a reward claimed before saving a bank account that earned rewards elsewhere', () => {
  it('stays in the wallet: withdrawing it is refused with the reason; money of its own still leaves', async () => {
    const shared = validNuban('058')
    const a = await signUp(api, '198.51.100.51')
    await saveBankAccount(api, a, shared)
    expect((await claim(api, a, 'set_pin')).body.code).toBe(Code.OK)
    const b = await signUp(api, '198.51.100.52')
    expect((await claim(api, b, 'set_pin')).body.code).toBe(Code.OK)
    const reward = (await walletInfo(api, b.token)).balance
    expect(reward).toBeGreaterThan(0)
    await saveBankAccount(api, b, shared)
    // Money from a sale (an operator's credit here) is the person's own and may leave; the reward may not.
    await adjust(api, b.userId, 500_000)
    const res = await withdraw(api, b, 500_000 + reward)
    expect(res.body).toEqual({ code: Refusals.REWARD_HELD.code, msg: Refusals.REWARD_HELD.msg, data: null })
    expect(await walletInfo(api, b.token)).toMatchObject({ balance: 500_000 + reward, frozen: 0 })
    expect((await withdraw(api, b, 500_000 + 1)).body.code).toBe(Refusals.REWARD_HELD.code)
    expect((await withdraw(api, b, 500_000)).body.code).toBe(Code.OK)
    expect(await walletInfo(api, b.token)).toMatchObject({ balance: reward, frozen: 500_000 })
    // The first account withdraws its own rewards to the same bank account.
    await adjust(api, a.userId, 100_000)
    expect((await withdraw(api, a, (await walletInfo(api, a.token)).balance)).body.code).toBe(Code.OK)
  })
})

describe("the operators' view", () => {
  it('lists a bank account saved on several accounts, with where each signed up and what rewards it was credited', async () => {
    const shared = validNuban('058')
    const a = await signUp(api, '2001:db8:beef:7:1:2:3:4')
    const b = await signUp(api, '2001:db8:beef:7:9:9:9:9')
    for (const u of [a, b]) await saveBankAccount(api, u, shared)
    expect((await claim(api, a, 'add_bank_card')).body.code).toBe(Code.OK)
    const res = await admin(api).get('/admin/signals/sharedBankAccounts?limit=200')
    expect(res.body.code).toBe(Code.OK)
    const list = opsMoneyApi.sharedBankAccounts.data.parse(res.body.data)
    const entry = list.find((e) => e.maskedNumber === `•••• ${shared.slice(-4)}` && e.accounts.some((x) => x.userId === a.userId))
    expect(entry).toMatchObject({ rewardsEarnedBy: a.userId })
    expect(entry!.accounts.map((x) => [x.email, x.signupAddress, x.rewards > 0])).toEqual([
      [a.email, '2001:db8:beef:7::/64', true],
      [b.email, '2001:db8:beef:7::/64', false],
    ])
    // What outlives a deleted account is a keyed digest, never the account number.
    const kept = await api.db.selectFrom('reward_bank_accounts').select('bank_account').where('user_id', '=', a.userId).execute()
    expect(kept).toHaveLength(1)
    expect(kept[0].bank_account).not.toContain(shared)
    // Operators only.
    expect((await api.get('/admin/signals/sharedBankAccounts')).status).toBe(401)
  })
})
