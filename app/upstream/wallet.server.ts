import { json } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { walletApi as api } from '#contract/wallet'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { flow, type FlowResult } from './flow.server'

/** The wallet (DESIGN §3 /v1/wallet/info, /v1/user/pageBalanceLog), one flow per contract call. */
export const walletInfoFlow = (request: Request) => flow(fallback.wallet, () => callApi(request, api.info, {}))

export const balanceLogFlow = (request: Request, query: InputOf<typeof api.pageBalanceLog>) =>
  flow(fallback.wallet, () => callApi(request, api.pageBalanceLog, query))

/**
 * A screen's data or its error page: a flow that failed while loading is thrown as a 503 with
 * its message (the boundary offers Retry); the refusals listed in `notFound` as a 404.
 */
export function loaded<T>(result: FlowResult<T>, notFound: readonly number[] = []): T {
  if (result.success) return result.data
  const status = result.code !== undefined && notFound.includes(result.code) ? 404 : 503
  throw json({ message: result.msg }, { status })
}
