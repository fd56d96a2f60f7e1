// Write to support (decision 049): where no chat provider is configured, a question goes to the
// console's Support desk and is followed in the app. `?order=` names the order it is about (from
// "Ask about this order"); the api checks it is the person's own. Without JavaScript a plain form,
// its refusal the fragment (decision 036); sent → the conversation, with a toast.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { SUPPORT_BODY_MAX, SUPPORT_SUBJECT_MAX } from '#contract/support-limits'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, leaveErrorAction, useErrorAction } from '~/components/forms'
import { QuestionField } from '~/components/question-field'
import { ActionBar, Screen } from '~/components/screen'
import supportStyles from '~/styles/screens/support.css?url'
import { orderDetailFlow } from '~/upstream/orders.server'
import { startConversationFlow } from '~/upstream/support.server'
import { requireToken } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { readForm } from '~/utils/form.server'
import { supportMessages as M } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(supportStyles)
export const links = stylesheetLinks(handle)

const ERROR_ID = 'support-new-error'
const plausibleId = (id: string | null) => (id && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null)

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  // A chat provider answers instead: Help & Support opens it, as before.
  if (getWebEnv().CHAT_WIDGET_URL) throw redirect('/support')
  const orderId = plausibleId(new URL(request.url).searchParams.get('order'))
  const order = orderId ? await orderDetailFlow(request, context, orderId) : null
  const about = order?.success ? { id: order.data.id, orderNo: order.data.orderNo } : null
  return { about }
}

type Reply = { error: string; fields: Record<string, string[]> }

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const form = await readForm(context, request)
  const text = (name: string) => String(form.get(name) ?? '').trim()
  const body = text('body')
  const subject = text('subject')
  const orderId = plausibleId(text('orderId') || null)
  const fields: Record<string, string[]> = {}
  if (!body) fields.body = ['Write your message']
  else if (body.length > SUPPORT_BODY_MAX) fields.body = [`Keep the message under ${SUPPORT_BODY_MAX} characters`]
  if (subject.length > SUPPORT_SUBJECT_MAX) fields.subject = [`Keep the subject under ${SUPPORT_SUBJECT_MAX} characters`]
  if (Object.keys(fields).length) return data<Reply>({ error: Object.values(fields).flat()[0]!, fields }, { status: 400 })
  const result = await startConversationFlow(request, context, { body, ...(subject && { subject }), ...(orderId && { orderId }) })
  if (!result.success) return data<Reply>({ error: result.msg, fields: {} }, { status: 400 })
  const to = leaveErrorAction(request, `/support/${encodeURIComponent(result.data.id)}`)
  return redirectWithToast(request, to, { type: 'success', message: M.messageSent })
}

export default function NewConversationScreen() {
  const { about } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const errorAction = useErrorAction(ERROR_ID)
  const sending = useNavigation().state === 'submitting'
  return (
    <Screen backTo="/support">
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Write to us</h2>
        <p className="cl-formhead__lead">
          A person reads every message. We answer here and tell you in Notifications. Never send your password, PIN or a card code.
        </p>
      </header>
      <Form method="post" action={errorAction} className="cl-form cl-fill" aria-describedby={reply?.error ? ERROR_ID : undefined}>
        {about ? <input type="hidden" name="orderId" value={about.id} /> : null}
        <Field
          label="Subject"
          inputProps={{
            id: 'support-subject',
            name: 'subject',
            maxLength: SUPPORT_SUBJECT_MAX,
            defaultValue: about ? `Order ${about.orderNo}` : '',
          }}
          errors={reply?.fields.subject}
          help={about ? undefined : 'Optional: your order number, or a few words'}
        />
        <QuestionField label="Your message" name="body" id="support-body" maxLength={SUPPORT_BODY_MAX} errors={reply?.fields.body} />
        {reply?.error ? <FormError id={ERROR_ID} errors={[reply.error]} /> : null}
        <ActionBar>
          <Button type="submit" variant="primary" block pending={sending}>
            Send message
          </Button>
        </ActionBar>
      </Form>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
