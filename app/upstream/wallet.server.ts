import type { AppLoadContext } from '@remix-run/node'
import { autoWithdrawalApi } from '#contract/auto-withdrawal'
import type { InputOf } from '#contract/endpoint'
import { profileApi } from '#contract/profile'
import { walletApi as api } from '#contract/wallet'
import { formatClock } from '~/components/money'
import { requireToken } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { callApi } from './call-api.server'
import { flow, loaded } from './flow.server'

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

/**
 * The wallet's page in one call: balances, a page of activity, what is on hold withdrawal by
 * withdrawal, and the PIN lock's sentence when PIN actions are locked (written here, so the
 * screen does not load the refusal table for it). The wallet's loader asks this module only: each
 * server module a route imports is an empty file of the browser build, fetched on a first visit.
 */
export async function walletPage(request: Request, context: AppLoadContext, query: InputOf<typeof api.overview>) {
  await requireToken(request)
  const { info, log, onTheirWay, autoWithdrawal } = loaded(await walletOverviewFlow(request, context, query))
  const pinLocked = info.hasPin && info.pin.lockedUntil ? R.pinLocked(formatClock(info.pin.lockedUntil, info.limits.timeZone)) : null
  return { info, log, onTheirWay, pinLocked, autoWithdrawal }
}

/** Auto-withdrawal on (with the PIN) or off, from the Wallet screen. */
export const setAutoWithdrawalFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof autoWithdrawalApi.set>) =>
  flow(context, fallback.wallet, () => callApi(request, context, autoWithdrawalApi.set, body))
