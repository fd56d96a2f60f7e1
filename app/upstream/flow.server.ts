import { type AppLoadContext, data } from '@remix-run/node'
import { logger } from '~/utils/logger.server'
import { isThrownAnswer } from '~/utils/thrown.server'
import { UpstreamError, type UpstreamErrorKind } from './client.server'

/**
 * The flows of SPEC §8: each answers {success:false, msg} with the server's msg, or the thrown
 * error's message, or the flow's own fallback. Expiry is not a flow failure: callApi throws the
 * redirect to /login for it.
 */
export type FlowFailure = {
  success: false
  msg: string
  /** The envelope code of a business refusal. */
  code?: number
  /** How the call failed (client.server.ts); absent for a failure that was not the api's answer. */
  kind?: UpstreamErrorKind
  /** HTTP status, when one arrived. */
  status?: number
  /** A 429's Retry-After in seconds. */
  retryAfter?: number
}
export type FlowResult<T> = { success: true; data: T } | FlowFailure

/** `context`: the request's, so the line a bug logs carries its request id. */
export async function flow<T>(context: Pick<AppLoadContext, 'requestId'>, fallback: string, run: () => Promise<T>): Promise<FlowResult<T>> {
  try {
    return { success: true, data: await run() }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    // Anything but the api's answer is our bug, not the user's: log it.
    if (!(error instanceof UpstreamError)) logger.error({ err: error, requestId: context.requestId }, 'flow failed')
    const message = error instanceof Error ? error.message.trim() : ''
    if (!(error instanceof UpstreamError)) return { success: false, msg: message || fallback }
    const { code, kind, status, retryAfter } = error
    return { success: false, msg: message || fallback, code, kind, status, retryAfter }
  }
}

/**
 * A screen's data or its error page: a flow that failed while loading is thrown as a 503 with
 * its message (the boundary offers Retry); the refusals listed in `notFound` as a 404.
 */
export function loaded<T>(result: FlowResult<T>, notFound: readonly number[] = []): T {
  if (result.success) return result.data
  const status = result.code !== undefined && notFound.includes(result.code) ? 404 : 503
  throw data({ message: result.msg }, { status })
}
