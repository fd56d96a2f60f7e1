// One support conversation at the desk: the thread, a reply (the seller is notified) and Close.
// Plain forms: without JavaScript each answers with a redirect back here and a toast.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { supportDeskApi } from '#contract/ops/support'
import { Refusals } from '#contract/refusals'
import { supportBodyField } from '#contract/support-conversations'
import { SUPPORT_BODY_MAX } from '#contract/support-limits'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { badInput, deskMove, readDeskForm, type DeskReply } from '~/ops/desk-move.server'
import { formatWhen } from '~/ops/format'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import { loaded } from '~/upstream/flow.server'
import { deskStatus } from '~/utils/support-words'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const id = params.id ?? ''
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw data({ message: Refusals.SUPPORT_CONVERSATION_NOT_FOUND.msg }, { status: 404 })
  const thread = loaded(await staffFlow(request, context, supportDeskApi.thread, { id }), [
    Refusals.SUPPORT_CONVERSATION_NOT_FOUND.code,
    400,
  ])
  return { thread }
}

/** A reply to the seller, or Close. */
const conversationDeskForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('reply'), body: supportBodyField }).strict(),
  z.object({ intent: z.literal('close') }).strict(),
])

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const id = params.id ?? ''
  const form = await readDeskForm(context, request, conversationDeskForm, 'Choose Send reply or Close conversation')
  if (!form.ok) return badInput(form.problem, form.raw.intent === 'close' ? 'close' : 'reply')
  const here = `/ops/support/${encodeURIComponent(id)}`
  if (form.value.intent === 'close') {
    return deskMove(request, context, {
      endpoint: supportDeskApi.close,
      input: { id },
      form: 'close',
      to: here,
      done: () => 'Conversation closed',
    })
  }
  return deskMove(request, context, {
    endpoint: supportDeskApi.reply,
    input: { id, body: form.value.body },
    form: 'reply',
    to: here,
    done: () => 'Reply sent: the seller is notified',
  })
}

export default function SupportConversationDesk() {
  const { thread } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | undefined
  const busy = useNavigation().state === 'submitting'
  const closed = thread.status === 'closed'
  return (
    <OpsPage title={thread.subject} actions={<Link to="/ops/support">All conversations</Link>}>
      <p className="ops-panel">
        {thread.userEmail} · {deskStatus[thread.status]}
        {thread.orderNo ? (
          <>
            {' '}
            · Order <Link to={`/ops/review/${encodeURIComponent(thread.orderId ?? '')}`}>{thread.orderNo}</Link>
          </>
        ) : null}
      </p>
      <ol className="cl-thread">
        {thread.messages.map((m) => (
          <li key={m.id} className={`cl-thread__message cl-thread__message--${m.author}`}>
            <p className="cl-thread__who">
              {m.author === 'staff' ? (m.staffEmail ?? 'Staff') : 'Seller'} · {formatWhen(m.createdAt)}
            </p>
            <p className="cl-thread__body">{m.body}</p>
          </li>
        ))}
      </ol>
      {closed && reply ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      {closed ? (
        <p className="ops-panel">This conversation is closed.</p>
      ) : (
        <section className="ops-panel" aria-labelledby="reply-title">
          <h2 id="reply-title" className="ops-tile__label">
            Reply
          </h2>
          {/* Keyed by the messages: a reply sent empties the box (JavaScript keeps the page, not the text). */}
          <Form method="post" className="ops-form ops-form--stack" key={thread.messages.length}>
            <input type="hidden" name="intent" value="reply" />
            <label>
              Your answer
              <textarea name="body" rows={5} required maxLength={SUPPORT_BODY_MAX} />
            </label>
            {reply?.form === 'reply' ? (
              <p className="ops-error" role="alert">
                {reply.error}
              </p>
            ) : null}
            <button type="submit" className="ops-button ops-button--primary" disabled={busy}>
              Send reply
            </button>
          </Form>
          {/* Closing takes the reply form away; a whole-page post and redirect does it with or without JavaScript. */}
          <Form method="post" className="ops-form" reloadDocument>
            <input type="hidden" name="intent" value="close" />
            {reply?.form === 'close' ? (
              <p className="ops-error" role="alert">
                {reply.error}
              </p>
            ) : null}
            <button type="submit" className="ops-button ops-button--ghost" disabled={busy}>
              Close conversation
            </button>
          </Form>
        </section>
      )}
    </OpsPage>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
