import { supportApi as api } from '#contract/support'
import { supportConversationsApi as seller } from '#contract/support-conversations'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { supportInfo } from '../services/support'
import * as conversations from '../services/support-conversations'

/**
 * /v1/support/info: the public settings the Help & Support screen quotes. /v1/support/conversation*:
 * a seller's conversations with support (the console's side: routes/ops/support.ts).
 */
export function supportRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.info, async () => supportInfo(deps))
  bind(seller.list, ({ user }) => conversations.listConversations(deps, user))
  bind(seller.thread, ({ user, input }) => conversations.conversationThread(deps, user, input.id))
  bind(seller.start, ({ user, input }) => conversations.startConversation(deps, user, input))
  bind(seller.reply, ({ user, input }) => conversations.sellerReply(deps, user, input))
  return router
}
