import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { profileApi } from '#contract/profile'
import { taskIdField, tasksApi as api, type GetTaskRewardBody } from '#contract/tasks'
import { requireToken } from '~/utils/auth.server'
import { taskMessages as T } from '~/utils/task-messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/**
 * Task rewards (DESIGN §3). The tasks come with /v1/user/index, which the root loader asks for on
 * every page: callApi shares that GET within a request (request-memo.server.ts), so reading them
 * on Home, Account or Rewards costs no extra api call.
 */
export const tasksFlow = (request: Request, context: AppLoadContext) =>
  flow(context, T.loadFailed, async () => (await callApi(request, context, profileApi.index, {})).taskInfos)

export const claimTaskFlow = (request: Request, context: AppLoadContext, body: GetTaskRewardBody) =>
  flow(context, T.claimFailed, () => callApi(request, context, api.getTaskReward, body))

/** The Claim button's form (here, not in the route: the screen then loads no zod). */
export const claimTaskForm = z.object({ taskId: taskIdField })

/**
 * The account screen's tasks (none when the api cannot say). Its loader asks this module only:
 * each server module a route imports is an empty file of the browser build, fetched on a first
 * visit.
 */
export async function accountTasks(request: Request, context: AppLoadContext) {
  await requireToken(request)
  const tasks = await tasksFlow(request, context)
  return tasks.success ? tasks.data : []
}
