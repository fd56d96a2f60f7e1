import { notificationsApi as api } from '#contract/notifications'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as notifications from '../services/notifications'

/** /v1/user/pageMessage and readMessage: the person's own notifications. */
export function notificationsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.pageMessage, ({ user, input }) => notifications.notificationPage(deps, user, input))
  bind(api.readMessage, ({ user, input }) => notifications.readNotification(deps, user, input))
  return router
}
