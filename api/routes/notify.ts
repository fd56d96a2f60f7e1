import { notifyApi as api } from '#contract/notify'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as notify from '../services/notify'

/** Notification preferences, push subscriptions and one-click unsubscribe (decision 046). */
export function notifyRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.notifyPreferences, ({ user }) => notify.preferences(deps, user))
  bind(api.setNotifyPreferences, ({ user, input }) => notify.setPreferences(deps, user, input))
  bind(api.pushKey, () => notify.pushKey(deps))
  bind(api.pushSubscribe, ({ user, input }) => notify.subscribe(deps, user, input))
  bind(api.pushSubscriptions, ({ user }) => notify.subscriptions(deps, user))
  bind(api.notifySettings, ({ user }) => notify.settings(deps, user))
  bind(api.pushRemove, ({ user, input }) => notify.removePush(deps, user, input.id))
  bind(api.unsubscribeInfo, ({ input }) => notify.unsubscribeInfo(deps, input.token))
  bind(api.unsubscribe, ({ input }) => notify.unsubscribe(deps, input.token))
  return router
}
