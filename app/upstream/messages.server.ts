import type { InputOf } from '#contract/endpoint'
import { messagesApi as api, type ReadMessageBody } from '#contract/messages'
import { callApi } from '~/utils/auth.server'
import { notificationMessages as N } from '~/utils/messages'
import { flow } from './flow.server'

/** Messages (DESIGN §3 "Messages"; the Notifications screen), one flow per contract call. */
export const messagePageFlow = (request: Request, query: InputOf<typeof api.pageMessage>) =>
  flow(N.loadFailed, () => callApi(request, api.pageMessage, query))

export const readMessageFlow = (request: Request, body: ReadMessageBody) =>
  flow(N.readFailed, () => callApi(request, api.readMessage, body))
