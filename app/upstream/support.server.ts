import type { AppLoadContext } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { supportApi as api } from '#contract/support'
import { supportConversationsApi as conversations } from '#contract/support-conversations'
import { supportMessages as M } from '~/utils/shell-messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The public settings Help & Support quotes (/v1/support/info), as the Withdraw screen applies them. */
export const supportInfoFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.infoFailed, () => callApi(request, context, api.info, {}))

/** A seller's support conversations (decision 049), one flow per contract call. */
export const conversationListFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.conversationsFailed, () => callApi(request, context, conversations.list, {}))

export const conversationFlow = (request: Request, context: AppLoadContext, id: string) =>
  flow(context, M.conversationsFailed, () => callApi(request, context, conversations.thread, { id }))

export const startConversationFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof conversations.start>) =>
  flow(context, M.sendFailed, () => callApi(request, context, conversations.start, body))

export const replyConversationFlow = (request: Request, context: AppLoadContext, body: InputOf<typeof conversations.reply>) =>
  flow(context, M.sendFailed, () => callApi(request, context, conversations.reply, body))
