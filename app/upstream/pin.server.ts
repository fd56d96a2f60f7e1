import { pinApi as api, type ResetPinBody, type SetPinBody } from '#contract/pin'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { flow } from './flow.server'

/** The withdrawal PIN (DESIGN §3 setPin, resetPin), one flow per contract call. */
export const setPinFlow = (request: Request, body: SetPinBody) => flow(fallback.setPin, () => callApi(request, api.setPin, body))

export const resetPinFlow = (request: Request, body: ResetPinBody) => flow(fallback.resetPin, () => callApi(request, api.resetPin, body))
