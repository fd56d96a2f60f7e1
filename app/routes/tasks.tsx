// Rewards (login): every task with its progress and reward, and the Claim action that the task
// list posts to from here, Home and Account. The action always answers with a redirect (PRG) back
// to where the claim came from (same-site paths only), with the outcome as a toast.
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Money } from '~/components/money'
import { Screen } from '~/components/screen'
import { TaskList, taskListStylesheet } from '~/components/task-list'
import { loaded } from '~/upstream/flow.server'
import { claimTaskFlow, claimTaskForm, tasksFlow } from '~/upstream/tasks.server'
import { requireToken } from '~/utils/auth.server'
import { readForm } from '~/utils/form.server'
import { flowMessage } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { taskMessages as T } from '~/utils/task-messages'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(taskListStylesheet)
export const links = stylesheetLinks(handle)

/** The tasks come with the root's /v1/user/index: this page costs no api call of its own. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  return { tasks: loaded(await tasksFlow(request, context)) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  const back = safeRedirect(formData.get('redirectTo'), '/tasks')
  const parsed = claimTaskForm.safeParse({ taskId: formData.get('taskId') ?? undefined })
  if (!parsed.success) return redirectWithToast(request, back, { type: 'error', message: T.chooseTask })
  const result = await claimTaskFlow(request, context, parsed.data)
  if (!result.success) return redirectWithToast(request, back, { type: 'error', message: flowMessage(result) })
  const { task } = result.data
  return redirectWithToast(request, back, { type: 'success', message: T.claimed(formatMoney(task.reward, task.currency)) })
}

export default function RewardsScreen() {
  const { tasks } = useLoaderData<typeof loader>()
  const open = tasks.filter((t) => t.status !== 'claimed')
  const toEarn = open.reduce((sum, t) => sum + t.reward, 0)
  const currency = tasks[0]?.currency
  return (
    <Screen backTo="/account">
      <Card className="cl-rewards-head">
        <span className="cl-icon-tile" aria-hidden="true">
          <Icon name="gift" size={28} />
        </span>
        <div className="cl-rewards-head__text">
          <h2 className="cl-rewards-head__title">{T.heading}</h2>
          <p className="cl-rewards-head__lead">{T.lead}</p>
          {open.length > 0 && currency ? (
            <p className="cl-rewards-head__left">
              <Money amount={toEarn} currency={currency} tone="credit" /> {T.toEarn}
            </p>
          ) : null}
        </div>
      </Card>

      {tasks.length === 0 ? (
        <Card className="cl-empty">
          <h2 className="cl-empty__title">{T.empty}</h2>
          <p className="cl-empty__text">{T.emptyText}</p>
        </Card>
      ) : (
        <section className="cl-section" aria-labelledby="rewards-tasks">
          <h2 id="rewards-tasks" className="cl-section__title">
            Tasks
          </h2>
          <Card flush>
            <TaskList tasks={tasks} redirectTo="/tasks" label="Tasks" />
          </Card>
          {open.length === 0 ? (
            <div className="cl-callout cl-callout--success">
              <Icon name="check-circle" size={20} className="cl-callout__icon" />
              <p className="cl-callout__body">{T.allClaimed}</p>
            </div>
          ) : null}
        </section>
      )}
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
