import { messagesApi as api } from '#contract/messages'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as messages from '../services/messages'

/** /v1/user/pageMessage and readMessage: the person's own messages (Notifications). */
export function messagesRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.pageMessage, ({ user, input }) => messages.messagePage(deps, user, input))
  bind(api.readMessage, ({ user, input }) => messages.readMessage(deps, user, input))
  return router
}
