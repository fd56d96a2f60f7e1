// One conversation with support (decision 049): the messages, oldest first, and a reply while it is
// not closed. Another person's conversation reads as not found. Without JavaScript a plain form,
// its refusal the fragment (decision 036); sent → this page again, with a toast.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Refusals } from '#contract/refusals'
import { SUPPORT_BODY_MAX } from '#contract/support-limits'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FormError, leaveErrorAction, useErrorAction } from '~/components/forms'
import { Link } from '~/components/link'
import { When } from '~/components/money'
import { QuestionField } from '~/components/question-field'
import { ActionBar, Screen } from '~/components/screen'
import supportStyles from '~/styles/screens/support.css?url'
import { loaded } from '~/upstream/flow.server'
import { orderTimeZone } from '~/upstream/orders.server'
import { conversationFlow, replyConversationFlow } from '~/upstream/support.server'
import { requireToken } from '~/utils/auth.server'
import { readForm } from '~/utils/form.server'
import { supportMessages as M } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { sellerStatus } from '~/utils/support-words'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(supportStyles)
export const links = stylesheetLinks(handle)

const ERROR_ID = 'support-reply-error'
const NOT_FOUND = [Refusals.SUPPORT_CONVERSATION_NOT_FOUND.code, 400] as const

function conversationId(params: LoaderFunctionArgs['params']) {
  const id = params.id ?? ''
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw data({ message: Refusals.SUPPORT_CONVERSATION_NOT_FOUND.msg }, { status: 404 })
  return id
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const [answer, timeZone] = await Promise.all([
    conversationFlow(request, context, conversationId(params)),
    orderTimeZone(request, context),
  ])
  return { thread: loaded(answer, NOT_FOUND), timeZone }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireToken(request)
  const id = conversationId(params)
  const form = await readForm(context, request)
  const body = String(form.get('body') ?? '').trim()
  if (!body) return data({ error: 'Write your message' }, { status: 400 })
  if (body.length > SUPPORT_BODY_MAX) return data({ error: `Keep the message under ${SUPPORT_BODY_MAX} characters` }, { status: 400 })
  const result = await replyConversationFlow(request, context, { id, body })
  if (!result.success) {
    if (result.code === Refusals.SUPPORT_CONVERSATION_NOT_FOUND.code) throw data({ message: result.msg }, { status: 404 })
    return data({ error: result.msg }, { status: 400 })
  }
  return redirectWithToast(request, leaveErrorAction(request, `/support/${encodeURIComponent(id)}`), {
    type: 'success',
    message: M.messageSent,
  })
}

export default function ConversationScreen() {
  const { thread, timeZone } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const errorAction = useErrorAction(ERROR_ID)
  const sending = useNavigation().state === 'submitting'
  const closed = thread.status === 'closed'
  return (
    <Screen backTo="/support">
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">{thread.subject}</h2>
        <p className="cl-formhead__lead">
          {sellerStatus[thread.status]}
          {thread.orderId && thread.orderNo ? (
            <>
              {' · '}
              <Link to={`/order/${encodeURIComponent(thread.orderId)}`}>Order {thread.orderNo}</Link>
            </>
          ) : null}
        </p>
      </header>
      <ol className="cl-thread" aria-label="Messages">
        {thread.messages.map((m) => (
          <li key={m.id} className={`cl-thread__message cl-thread__message--${m.author}`}>
            <p className="cl-thread__who">
              {m.author === 'staff' ? 'Support' : 'You'} · <When at={m.createdAt} timeZone={timeZone} />
            </p>
            <p className="cl-thread__body">{m.body}</p>
          </li>
        ))}
      </ol>
      {closed ? (
        <p className="cl-muted">
          This conversation is closed. <Link to="/support/new">Write a new message</Link> if you still need help.
        </p>
      ) : (
        // Keyed by the messages: a reply sent empties the box (JavaScript keeps the page, not the text).
        <Form
          key={thread.messages.length}
          method="post"
          action={errorAction}
          className="cl-form cl-fill"
          aria-describedby={reply?.error ? ERROR_ID : undefined}
        >
          <QuestionField label="Your reply" name="body" id="support-reply" maxLength={SUPPORT_BODY_MAX} />
          {reply?.error ? <FormError id={ERROR_ID} errors={[reply.error]} /> : null}
          <ActionBar>
            <Button type="submit" variant="primary" block pending={sending}>
              Send reply
            </Button>
          </ActionBar>
        </Form>
      )}
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
