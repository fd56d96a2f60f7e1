import { z } from 'zod'
import { post } from './endpoint'
import { currencyCode, minorUnits } from './money-fields'

/**
 * Task rewards (DESIGN §3): a few first steps, each paying a one-time reward into the wallet.
 * Progress is counted by the api from what the person really did (a PIN set, a bank account
 * added, orders completed); a finished task is `claimable` until the person claims it, then
 * `claimed` for good. Rewards are settings of the api (TASK_REWARD_*), in minor units.
 */
export const TaskId = {
  SET_PIN: 'set_pin',
  ADD_BANK_CARD: 'add_bank_card',
  FIRST_ORDER: 'first_order',
  FIVE_ORDERS: 'five_orders',
} as const
export type TaskId = (typeof TaskId)[keyof typeof TaskId]

export const TaskStatus = { IN_PROGRESS: 'in_progress', CLAIMABLE: 'claimable', CLAIMED: 'claimed' } as const
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus]
export const taskStatuses = Object.values(TaskStatus) as [TaskStatus, ...TaskStatus[]]

export const taskInfoSchema = z.object({
  /** A string, not an enum of today's ids: a web that predates a new task still reads the list. */
  id: z.string(),
  title: z.string(),
  /** What the claim credits (minor units of `currency`); for a claimed task, what it credited. */
  reward: minorUnits,
  currency: currencyCode,
  /** Done so far, never above `target`. */
  progress: z.number().int().nonnegative(),
  target: z.number().int().positive(),
  status: z.enum(taskStatuses),
})
export type TaskInfo = z.infer<typeof taskInfoSchema>

export const taskIdField = z
  .string({ required_error: 'Choose a task', invalid_type_error: 'taskId must be text' })
  .trim()
  .min(1, 'Choose a task')
  .max(64, 'taskId is too long')

export const getTaskRewardBody = z.object({ taskId: taskIdField }).strict()
export type GetTaskRewardBody = z.infer<typeof getTaskRewardBody>

/** The task, now `claimed`, and the available balance after the credit. */
export const getTaskRewardData = z.object({ task: taskInfoSchema, balance: minorUnits, currency: currencyCode })
export type GetTaskRewardData = z.infer<typeof getTaskRewardData>

export const tasksApi = {
  getTaskReward: post('/v1/user/getTaskReward', 'user', getTaskRewardBody, getTaskRewardData),
}
