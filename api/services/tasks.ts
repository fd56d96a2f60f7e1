import { formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import { TaskId, TaskStatus, type GetTaskRewardBody, type GetTaskRewardData, type TaskInfo } from '#contract/tasks'
import { BalanceLogType } from '#contract/wallet'
import type { Db } from '../db/connect'
import type { TaskClaimRow, User } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ApiDeps } from '../deps'
import { refuse } from '../lib/envelope'
import { newId } from '../lib/tokens'
import { addNotification } from '../models/notifications'
import { bankAccountsEverSaved, claimForRewards } from '../models/reward-bank-accounts'
import { claimsOf, findClaim, insertClaim, taskFacts, type TaskFacts } from '../models/tasks'
import { credit } from './ledger'

/**
 * Task rewards (contract/tasks.ts). Progress is never stored: it is counted from the tables of
 * what the person did, so it cannot drift from the truth. A claim is one write transaction: the
 * claim row (UNIQUE per person and task), the credit through the ledger (`task_reward`, its own
 * idempotency key) and the notification — all or nothing, once.
 *
 * Rewards pay once per person, and a bank account is a person: a claim takes the person's bank
 * accounts (every one ever saved) for their rewards, and is refused when one of them already
 * earned rewards for another account (throw-away accounts sharing one bank account). Rewards
 * claimed before any bank account was saved are held at withdrawal instead (withdrawals.ts).
 */
type TaskDef = { id: TaskId; title: string; target: number; done: (facts: TaskFacts) => number }

/** The seeded tasks, in the order they are shown (the order a new seller meets them). */
const TASKS: readonly TaskDef[] = [
  { id: TaskId.SET_PIN, title: 'Set your withdrawal PIN', target: 1, done: (f) => (f.hasPin ? 1 : 0) },
  // Counted once added, even if deleted later: the step was taken, and progress never goes back.
  { id: TaskId.ADD_BANK_CARD, title: 'Add a bank account', target: 1, done: (f) => f.bankCardsAdded },
  { id: TaskId.FIRST_ORDER, title: 'Complete your first order', target: 1, done: (f) => f.completedOrders },
  { id: TaskId.FIVE_ORDERS, title: 'Complete 5 orders', target: 5, done: (f) => f.completedOrders },
]

/** The tasks on offer: a reward setting of 0 switches a task off (not listed, not claimable). */
const offered = (deps: ApiDeps) => TASKS.filter((t) => deps.config.tasks.rewards[t.id] > 0)

function toTaskInfo(deps: ApiDeps, task: TaskDef, facts: TaskFacts, claim: TaskClaimRow | undefined): TaskInfo {
  const progress = Math.min(task.done(facts), task.target)
  const status = claim ? TaskStatus.CLAIMED : progress >= task.target ? TaskStatus.CLAIMABLE : TaskStatus.IN_PROGRESS
  return {
    id: task.id,
    title: task.title,
    // A claimed task shows what it paid, whatever the setting says today.
    reward: claim ? Number(claim.amount) : deps.config.tasks.rewards[task.id],
    currency: claim ? claim.currency : deps.config.wallet.currency,
    progress: claim ? task.target : progress,
    target: task.target,
    status,
  }
}

/** The claims behind `taskInfos`: none asked when no task is on offer. */
export async function taskClaims(deps: ApiDeps, user: User): Promise<TaskClaimRow[]> {
  return offered(deps).length === 0 ? [] : claimsOf(deps.db, user.id)
}

/** `taskInfos` of /v1/user/index, from the facts its wallet statement counted and the claims. */
export function taskInfos(deps: ApiDeps, facts: TaskFacts, claims: readonly TaskClaimRow[]): TaskInfo[] {
  return offered(deps).map((t) =>
    toTaskInfo(
      deps,
      t,
      facts,
      claims.find((c) => c.task_id === t.id),
    ),
  )
}

/** POST /v1/user/getTaskReward: credits a finished task's reward once. */
export async function getTaskReward(deps: ApiDeps, user: User, body: GetTaskRewardBody): Promise<GetTaskRewardData> {
  const task = offered(deps).find((t) => t.id === body.taskId)
  if (!task) throw refuse(Refusals.TASK_NOT_FOUND)
  const { currency } = deps.config.wallet
  const amount = deps.config.tasks.rewards[task.id]
  const now = deps.now()
  return writeTransaction(deps.db, deps.dbKind, async (trx) => {
    if (await findClaim(trx, user.id, task.id)) throw refuse(Refusals.TASK_ALREADY_CLAIMED)
    const facts = await taskFacts(trx, user.id)
    if (Math.min(task.done(facts), task.target) < task.target) throw refuse(Refusals.TASK_NOT_DONE, { task: task.title })
    const { heldByOther } = await claimForRewards(
      trx,
      user.id,
      await bankAccountsEverSaved(trx, deps.config.wallet.pinPepper, user.id),
      now,
    )
    if (heldByOther) throw refuse(Refusals.REWARD_BANK_ACCOUNT_USED)
    const claim: TaskClaimRow = { id: newId(), user_id: user.id, task_id: task.id, amount, currency, claimed_at: now }
    // A parallel claim committed first (PostgreSQL): it was credited, this one is not.
    if (!(await insertClaim(trx, claim))) throw refuse(Refusals.TASK_ALREADY_CLAIMED)
    const balance = await payReward(trx, claim, task.title)
    await addNotification(
      trx,
      {
        userId: user.id,
        kind: 'task',
        title: 'Task reward',
        content: `${formatMoney(amount, currency)} for "${task.title}" is in your wallet.`,
        refId: task.id,
      },
      now,
    )
    return { task: toTaskInfo(deps, task, facts, claim), balance, currency }
  })
}

/** The reward into the wallet through the ledger; answers the available balance after it. */
async function payReward(trx: Db, claim: TaskClaimRow, title: string): Promise<number> {
  const { entry } = await credit(
    trx,
    {
      userId: claim.user_id,
      amount: claim.amount,
      type: BalanceLogType.TASK_REWARD,
      refType: 'task',
      refId: claim.task_id,
      note: title,
      key: `task:${claim.user_id}:${claim.task_id}`,
    },
    claim.currency,
    claim.claimed_at,
  )
  return Number(entry.balance_after)
}
