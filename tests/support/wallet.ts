import { randomInt, randomUUID } from 'node:crypto'
import { nubanCheckDigit } from '#contract/bank-cards'
import type { BankCard } from '#contract/bank-cards'
import { Refusals } from '#contract/refusals'
import type { WalletInfo } from '#contract/wallet'
import type { Withdrawal } from '#contract/withdrawals'
import { seedUser, type TestApi } from './api'
import { newEmail } from './kit'
import { bearer, seedStaff, testStaffToken } from './staff'

/** The break-glass ADMIN_TOKEN of the test api (startTestApi sets config.adminToken to it): automation only. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef-0123456789'
export const PIN = '204816'

/** A NUBAN that passes the check digit for the bank (serial random unless given). */
export function validNuban(bankCode = '058', serial = String(randomInt(0, 1e9)).padStart(9, '0')): string {
  return serial + nubanCheckDigit(bankCode, serial)
}

export const requestId = () => randomUUID().replace(/-/g, '')

/** Operators' calls as the suite's signed-in staff admin (tests/support/staff.ts). */
export const admin = (api: TestApi) => ({
  post: async <T = unknown>(path: string, body: unknown) =>
    api.post<T>(path, body, { headers: { authorization: `Bearer ${await testStaffToken(api)}` } }),
  get: async <T = unknown>(path: string) => api.get<T>(path, { headers: { authorization: `Bearer ${await testStaffToken(api)}` } }),
})

/** Credits (or debits) a wallet the way operators do: through the ledger, audited. */
export async function adjust(api: TestApi, userId: string, amount: number, reason = 'test credit') {
  const res = await admin(api).post<{ type: string; id: string }>('/admin/wallet/adjust', {
    userId,
    amount,
    reason,
    requestId: requestId(),
  })
  if (res.body.code !== 200) throw new Error(`adjust: ${res.text}`)
  if (res.body.data.type !== 'adjustment_request') return res.body.data
  // Over the approval line (this suite's admin's adjustments of this person add up): a second admin approves.
  const checker = await seedStaff(api, { role: 'admin' })
  const approved = await api.post('/admin/wallet/adjust/approve', { id: res.body.data.id }, { headers: bearer(checker.token) })
  if (approved.body.code !== 200) throw new Error(`adjust: ${approved.text}`)
  return approved.body.data
}

export type WalletUser = { userId: string; token: string; email: string; card?: BankCard }

/** A person with (optionally) a balance, a PIN and a bank card, made through the api itself. */
export async function walletUser(
  api: TestApi,
  options: { balance?: number; pin?: string | null; card?: boolean; userName?: string } = {},
): Promise<WalletUser> {
  const email = newEmail('wallet')
  const { user, token } = await seedUser(api, { email, userName: options.userName })
  const pin = options.pin === undefined ? PIN : options.pin
  if (pin) {
    const set = await api.post('/v1/user/setPin', { pin }, { token })
    if (set.body.code !== 200) throw new Error(`setPin: ${set.text}`)
  }
  let card: BankCard | undefined
  if (pin && options.card !== false) {
    const added = await api.post<BankCard>(
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber: validNuban('058'), accountName: 'Ada Obi', pin },
      { token },
    )
    if (added.body.code !== 200) throw new Error(`bankCard/add: ${added.text}`)
    card = added.body.data
  }
  if (options.balance) await adjust(api, user.id, options.balance)
  return { userId: user.id, token, email, card }
}

/**
 * `withdraw` as a patient client: a request that met another one checking the same person's PIN
 * (PIN_BUSY, nothing moved) is sent again, as its message asks. Races of many withdrawals of one
 * person then settle on what the money allows, however slow the machine.
 */
export async function withdrawRetryingBusy(...args: Parameters<typeof withdraw>) {
  for (let attempt = 1; ; attempt++) {
    const answer = await withdraw(...args)
    if (answer.body.code !== Refusals.PIN_BUSY.code || attempt === 20) return answer
  }
}

export const walletInfo = async (api: TestApi, token: string) => (await api.get<WalletInfo>('/v1/wallet/info', { token })).body.data

export function withdraw(
  api: TestApi,
  u: WalletUser,
  amount: number,
  extra: { pin?: string; requestId?: string; bankCardId?: string } = {},
) {
  return api.post<Withdrawal>(
    '/v1/withdraw/create',
    { bankCardId: extra.bankCardId ?? u.card!.id, amount, pin: extra.pin ?? PIN, requestId: extra.requestId ?? requestId() },
    { token: u.token },
  )
}
