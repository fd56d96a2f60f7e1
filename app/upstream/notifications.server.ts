import type { AppLoadContext } from '@remix-run/node'
import type { InputOf } from '#contract/endpoint'
import { notificationsApi as api, type ReadNotificationBody } from '#contract/notifications'
import { notificationMessages as N } from '~/utils/shell-messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** Notifications (the /notification screen), one flow per contract call. */
export const notificationPageFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.pageMessage>) =>
  flow(context, N.loadFailed, () => callApi(request, context, api.pageMessage, query))

export const readNotificationFlow = (request: Request, context: AppLoadContext, body: ReadNotificationBody) =>
  flow(context, N.readFailed, () => callApi(request, context, api.readMessage, body))
