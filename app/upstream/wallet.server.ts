import type { AppLoadContext } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { profileApi } from '#contract/profile'
import { walletApi as api } from '#contract/wallet'
import { flowFallbacks as fallback } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The wallet (DESIGN §3 /v1/wallet/info; the Wallet screen's /v1/wallet/overview), one flow per call a screen makes. */
export const walletInfoFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.wallet, () => callApi(request, context, api.info, {}))

export const walletOverviewFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.overview>) =>
  flow(context, fallback.wallet, () => callApi(request, context, api.overview, query))

export const withdrawFormFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.wallet, () => callApi(request, context, api.withdrawForm, {}))

/**
 * The wallet at a glance (PIN set, bank accounts, time zone) from the page's own user index: the
 * root asks the same, so the request memo makes it no extra call.
 */
export const walletSummaryFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.wallet, async () => {
    const { wallet } = await callApi(request, context, profileApi.index, {})
    if (!wallet) throw new Error(fallback.wallet)
    return wallet
  })
