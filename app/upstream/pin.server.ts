import type { AppLoadContext } from '@remix-run/node'
import { pinApi as api, type ResetPinBody, type SetPinBody } from '#contract/pin'
import { flowFallbacks as fallback } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The withdrawal PIN (DESIGN §3 setPin, resetPin), one flow per contract call. */
export const setPinFlow = (request: Request, context: AppLoadContext, body: SetPinBody) =>
  flow(context, fallback.setPin, () => callApi(request, context, api.setPin, body))

export const resetPinFlow = (request: Request, context: AppLoadContext, body: ResetPinBody) =>
  flow(context, fallback.resetPin, () => callApi(request, context, api.resetPin, body))
