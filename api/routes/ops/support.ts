import { supportDeskApi as desk } from '#contract/ops/support'
import type { ApiDeps } from '../../deps'
import { contractRouter } from '../../lib/route'
import * as conversations from '../../services/support-conversations'

/** /admin/support/*: the console's Support desk (any staff role) over the sellers' conversations. */
export function supportDeskRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(desk.list, () => conversations.deskList(deps))
  bind(desk.thread, ({ input }) => conversations.deskConversation(deps, input.id))
  bind(desk.reply, ({ actor, staff, input }) => conversations.staffReply(deps, { actor, staff }, input))
  bind(desk.close, ({ actor, input }) => conversations.closeDeskConversation(deps, actor, input.id))
  return router
}
