import type { AppLoadContext } from '@remix-run/node'
import type { DataOf, Endpoint, InputOf } from '#contract/endpoint'
import { expiredResponse, getToken } from '~/utils/auth.server'
import { deviceOf } from '~/utils/device.server'
import { upstream, UpstreamError } from './client.server'
import { afterChange, memoized } from './request-memo.server'

/**
 * A contract call on the person's behalf: their token (from the session cookie), their address
 * (from the load context), and a 401 anywhere ending the same way (expiredResponse). Every flow
 * calls the api through here.
 */
export async function callApi<E extends Endpoint>(
  request: Request,
  context: AppLoadContext,
  endpoint: E,
  input: InputOf<E>,
): Promise<DataOf<E>> {
  const token = await getToken(request)
  const send = () =>
    upstream.call(endpoint, input, {
      token,
      clientIp: context.clientAddress,
      device: deviceOf(request),
      requestId: context.requestId,
      observe: context.observeUpstream,
    })
  // A page's loaders asking the same GET (the root's and Home's user index) make one call.
  const answer =
    endpoint.method === 'GET'
      ? memoized(context, `${token ?? ''} ${endpoint.path} ${JSON.stringify(input)}`, send)
      : afterChange(context, send)
  try {
    return (await answer).data
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'expired') throw await expiredResponse(request)
    throw error
  }
}
