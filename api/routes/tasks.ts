import { tasksApi as api } from '#contract/tasks'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as tasks from '../services/tasks'

/** getTaskReward; the tasks themselves are listed in /v1/user/index (`taskInfos`). */
export function tasksRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.getTaskReward, ({ user, input }) => tasks.getTaskReward(deps, user, input))
  return router
}
