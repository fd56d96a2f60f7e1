import type { AppLoadContext } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { messagesApi as api, type ReadMessageBody } from '#contract/messages'
import { notificationMessages as N } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** Messages (DESIGN §3 "Messages"; the Notifications screen), one flow per contract call. */
export const messagePageFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.pageMessage>) =>
  flow(context, N.loadFailed, () => callApi(request, context, api.pageMessage, query))

export const readMessageFlow = (request: Request, context: AppLoadContext, body: ReadMessageBody) =>
  flow(context, N.readFailed, () => callApi(request, context, api.readMessage, body))
