import { type AppLoadContext, data } from '@remix-run/node'
import { Refusals } from '#contract/refusals'
import { withdrawalsApi as api, type CreateWithdrawalBody } from '#contract/withdrawals'
import { requireToken } from '~/utils/auth.server'
import { flowFallbacks as fallback, walletMessages } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow, loaded } from './flow.server'
import { walletSummaryFlow } from './wallet.server'

/** Withdrawals (DESIGN §3 /v1/withdraw), one flow per contract call. */
export const createWithdrawalFlow = (request: Request, context: AppLoadContext, body: CreateWithdrawalBody) =>
  flow(context, fallback.withdraw, () => callApi(request, context, api.create, body))

export const withdrawalDetailFlow = (request: Request, context: AppLoadContext, id: string) =>
  flow(context, fallback.withdrawal, () => callApi(request, context, api.detail, { id }))

/**
 * A withdrawal for a screen, or a 404: another person's, an unknown id and a malformed one are
 * answered alike (the malformed one never reaches the api).
 */
export async function loadWithdrawal(request: Request, context: AppLoadContext, id: string) {
  const notFound = () => data({ message: walletMessages.withdrawalNotFound }, { status: 404 })
  if (!/^[\w-]{1,64}$/.test(id)) throw notFound()
  const result = await withdrawalDetailFlow(request, context, id)
  if (!result.success && (result.code === Refusals.WITHDRAWAL_NOT_FOUND.code || result.code === 400)) throw notFound()
  return loaded(result)
}

/**
 * A withdrawal's page (its detail, and the success screen after it is asked for): the withdrawal
 * and the time zone its times are shown in. Their loaders ask this module only: each server
 * module a route imports is an empty file of the browser build, fetched on a first visit.
 */
export async function withdrawalPage(request: Request, context: AppLoadContext, id: string) {
  await requireToken(request)
  const [withdrawal, info] = await Promise.all([loadWithdrawal(request, context, id), walletSummaryFlow(request, context)])
  return { withdrawal, timeZone: loaded(info).timeZone }
}
