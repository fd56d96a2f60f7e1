import { json } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { Refusals } from '#contract/refusals'
import { withdrawalsApi as api, type CreateWithdrawalBody } from '#contract/withdrawals'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback, walletMessages } from '~/utils/messages'
import { flow } from './flow.server'
import { loaded } from './wallet.server'

/** Withdrawals (DESIGN §3 /v1/withdraw), one flow per contract call. */
export const createWithdrawalFlow = (request: Request, body: CreateWithdrawalBody) =>
  flow(fallback.withdraw, () => callApi(request, api.create, body))

export const withdrawalDetailFlow = (request: Request, id: string) => flow(fallback.withdrawal, () => callApi(request, api.detail, { id }))

export const withdrawalPageFlow = (request: Request, query: InputOf<typeof api.page>) =>
  flow(fallback.withdrawal, () => callApi(request, api.page, query))

/**
 * A withdrawal for a screen, or a 404: another person's, an unknown id and a malformed one are
 * answered alike (the malformed one never reaches the api).
 */
export async function loadWithdrawal(request: Request, id: string) {
  const notFound = () => json({ message: walletMessages.withdrawalNotFound }, { status: 404 })
  if (!/^[\w-]{1,64}$/.test(id)) throw notFound()
  const result = await withdrawalDetailFlow(request, id)
  if (!result.success && (result.code === Refusals.WITHDRAWAL_NOT_FOUND.code || result.code === 400)) throw notFound()
  return loaded(result)
}
