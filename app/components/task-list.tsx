// The task rewards as a list, for the Rewards screen and to drop into Home and Account: each task
// with its reward, a progress bar ("1 of 5", read out too), and what can be done about it — a
// Claim button (a plain POST form to /tasks, so it works without JavaScript, coming back here),
// "Claimed", or the way to do the task. Put it in a <Card flush>; a route that shows it alone takes `taskListStylesheet` as its sheet.
import { Form, useLocation, useNavigation } from '@remix-run/react'
import type { TaskInfo } from '#contract/tasks'
import tasksStyles from '~/styles/screens/tasks.css?url'
import { taskMessages as T } from '~/utils/task-messages'
import { Button, ButtonLink } from './button'
import { Card } from './card'
import { Icon } from './icon'
import { Link } from './link'
import { Money } from './money'

/** The list's CSS, the sheet of a route that shows it alone: `handle = stylesheetHandle(taskListStylesheet)`. */
export const taskListStylesheet = tasksStyles

/** Where the Claim form posts (app/routes/tasks.tsx). */
export const CLAIM_ACTION = '/tasks'

export type TaskListProps = {
  tasks: readonly TaskInfo[]
  /** Where a claim comes back to; the page it is on by default. Checked on the server (safeRedirect). */
  redirectTo?: string
  /** The list's accessible name. */
  label?: string
}

export function TaskList({ tasks, redirectTo, label = 'Rewards' }: TaskListProps) {
  const location = useLocation()
  const back = redirectTo ?? location.pathname + location.search
  if (tasks.length === 0) return null
  return (
    <ul className="cl-tasks" aria-label={label}>
      {tasks.map((task) => (
        <li key={task.id} className="cl-task">
          <TaskItem task={task} back={back} />
        </li>
      ))}
    </ul>
  )
}

/** The way to do a task, coming back to this page where the next screen supports it. */
function goHref(taskId: string, back: string): string | undefined {
  const withBack = (path: string) => `${path}?${new URLSearchParams({ redirectTo: back })}`
  switch (taskId) {
    case 'set_pin':
      return withBack('/set-pin')
    case 'add_bank_card':
      return withBack('/wallet/add-bank-card')
    case 'first_order':
    case 'five_orders':
      return '/order/sell'
    default:
      return undefined
  }
}

function TaskItem({ task, back }: { task: TaskInfo; back: string }) {
  const navigation = useNavigation()
  // Only the task that was sent spins (several Claim forms share one action).
  const claiming = navigation.state !== 'idle' && navigation.formAction === CLAIM_ACTION && navigation.formData?.get('taskId') === task.id
  const progressText = T.progress(task.progress, task.target)
  const percent = Math.round((Math.min(task.progress, task.target) / task.target) * 100)
  const titleId = `task-${task.id}-title`
  const go = T.go[task.id]
  const href = goHref(task.id, back)
  return (
    <>
      <span className={`cl-task__icon${task.status === 'claimed' ? ' cl-task__icon--done' : ''}`} aria-hidden="true">
        <Icon name="gift" size={22} />
      </span>
      <div className="cl-task__body">
        <p className="cl-task__title" id={titleId}>
          {task.title}
        </p>
        <p className="cl-task__reward">
          <Money amount={task.reward} currency={task.currency} signed tone={task.status === 'claimed' ? 'muted' : 'credit'} />
        </p>
      </div>
      <div className="cl-task__progress">
        <div
          className="cl-progress"
          role="progressbar"
          aria-labelledby={titleId}
          aria-valuemin={0}
          aria-valuemax={task.target}
          aria-valuenow={Math.min(task.progress, task.target)}
          aria-valuetext={progressText}
        >
          <span className="cl-progress__bar" style={{ width: `${percent}%` }} />
        </div>
        <span className="cl-task__count" aria-hidden="true">
          {progressText}
        </span>
      </div>
      <div className="cl-task__action">
        {task.status === 'claimable' ? (
          <Form method="post" action={CLAIM_ACTION} preventScrollReset>
            <input type="hidden" name="taskId" value={task.id} />
            <input type="hidden" name="redirectTo" value={back} />
            <Button type="submit" variant="primary" pending={claiming}>
              Claim<span className="cl-visually-hidden"> reward for {task.title}</span>
            </Button>
          </Form>
        ) : task.status === 'claimed' ? (
          <span className="cl-badge cl-badge--success">
            <Icon name="check-circle" size={14} />
            {T.claimedBadge}
          </span>
        ) : go && href ? (
          <ButtonLink to={href} variant="secondary" className="cl-task__go">
            {go}
            <span className="cl-visually-hidden"> to finish {task.title}</span>
          </ButtonLink>
        ) : null}
      </div>
    </>
  )
}

/** How many tasks Home and Account show: what to do next, not the whole list (that is /tasks). */
export const NEXT_TASKS = 2

/** The tasks to show first: money waiting to be claimed, then the next ones to do, in their order. */
export function nextTasks(tasks: readonly TaskInfo[], limit = NEXT_TASKS): TaskInfo[] {
  const claimable = tasks.filter((t) => t.status === 'claimable')
  const toDo = tasks.filter((t) => t.status === 'in_progress')
  return [...claimable, ...toDo].slice(0, Math.max(limit, claimable.length))
}

/**
 * Home's and Account's "Rewards": every reward ready to claim, else the next tasks to earn one
 * (NEXT_TASKS), with "See all" to /tasks. Nothing once every task is claimed. `id` names the
 * heading (one per page).
 */
export function RewardsSection({ tasks, id }: { tasks: TaskInfo[]; id: string }) {
  const next = nextTasks(tasks)
  if (next.length === 0) return null
  return (
    <section className="cl-section" aria-labelledby={id}>
      <div className="cl-inline cl-inline--between">
        <h2 id={id} className="cl-section__title">
          Rewards
        </h2>
        <Link to="/tasks" className="cl-link cl-link--touch">
          See all
        </Link>
      </div>
      <Card flush>
        <TaskList tasks={next} label="Rewards to earn" />
      </Card>
    </section>
  )
}
