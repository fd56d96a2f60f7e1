import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, PasswordField } from '~/components/forms'
import { opsFailure, opsMessages } from '~/ops/messages'
import { commitStaffSession, emptyStaffSession, getStaffSession, opsLoginUrl, type StaffSession } from '~/ops/session.server'
import { OpsCard, opsMeta } from '~/ops/shell'
import { codeSchema, passwordSchema } from '~/ops/sign-in-schemas'
import { staffLoginFlow, staffVerifyFlow } from '~/ops/staff.server'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { safeRedirect } from '~/utils/redirect'
import { flashToast, toastOf } from '~/utils/toast.server'

export const meta = opsMeta

/** Where a signed-in staff member goes: a console page they asked for, or the dashboard. */
const opsTarget = (value: unknown) => {
  const to = safeRedirect(value, '/ops')
  return to === '/ops' || to.startsWith('/ops/') || to.startsWith('/ops?') ? to : '/ops'
}

/**
 * Staff sign-in, two steps on one page: e-mail and password, then the authenticator's code. The
 * challenge between them stays in the staff cookie (never the URL); a customer's session does not
 * count here. Already signed in: on to the console.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getStaffSession(request)
  const redirectTo = opsTarget(new URL(request.url).searchParams.get('redirectTo'))
  if (session.get('token')) throw redirect(redirectTo)
  const flashed = session.get('toast')
  const step = session.get('challenge') ? ('code' as const) : ('password' as const)
  return data(
    {
      step,
      email: session.get('challengeEmail') ?? '',
      redirectTo,
      toast: flashed ? toastOf(flashed) : null,
      ...formConstraints({ 'ops-login': passwordSchema, 'ops-code': codeSchema }),
    },
    { headers: flashed ? { 'Set-Cookie': await commitStaffSession(session) } : undefined },
  )
}

const back = async (session: StaffSession, redirectTo: string) =>
  redirect(opsLoginUrl(redirectTo), { headers: { 'Set-Cookie': await commitStaffSession(session) } })

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(context, request)
  const redirectTo = opsTarget(form.get('redirectTo'))
  const session = await getStaffSession(request)
  if (session.get('token')) return redirect(redirectTo)
  const intent = form.get('intent')

  if (intent === 'restart') {
    session.unset('challenge')
    session.unset('challengeEmail')
    return back(session, redirectTo)
  }

  if (intent === 'code') {
    const submission = parseWithZod(form, { schema: codeSchema })
    const challenge = session.get('challenge')
    if (!challenge) {
      flashToast(session, { type: 'info', message: opsMessages.challengeExpired })
      return back(session, redirectTo)
    }
    if (submission.status !== 'success') return formRefusal(submission, { step: 'code' as const })
    const result = await staffVerifyFlow(request, context, { challenge, code: submission.value.code })
    if (!result.success) {
      // A dead challenge (expired, or the account locked) cannot take another code: start again.
      if (result.code === Refusals.STAFF_CHALLENGE_EXPIRED.code || result.code === Refusals.STAFF_LOCKED.code) {
        session.unset('challenge')
        session.unset('challengeEmail')
        flashToast(session, { type: 'error', message: result.msg })
        return back(session, redirectTo)
      }
      return formRefusal(submission, { step: 'code' as const }, opsFailure(result))
    }
    const fresh = await emptyStaffSession()
    fresh.set('token', result.data.token)
    fresh.set('email', result.data.staff.email)
    fresh.set('role', result.data.staff.role)
    flashToast(fresh, { type: 'success', message: opsMessages.signedIn })
    return redirect(redirectTo, { headers: { 'Set-Cookie': await commitStaffSession(fresh) } })
  }

  const submission = parseWithZod(form, { schema: passwordSchema })
  if (submission.status !== 'success') return formRefusal(submission, { step: 'password' as const })
  const result = await staffLoginFlow(request, context, submission.value)
  if (!result.success) return formRefusal(submission, { step: 'password' as const }, opsFailure(result))
  session.set('challenge', result.data.challenge)
  session.set('challengeEmail', submission.value.email)
  return back(session, redirectTo)
}

export default function StaffLogin() {
  const { step, email, redirectTo, toast } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  return (
    <OpsCard title="Staff sign-in" toast={toast}>
      <ActionToast toast={reply?.toast} />
      {step === 'code' ? (
        <CodeStep email={email} hidden={hidden} reply={reply?.step === 'code' ? reply : undefined} />
      ) : (
        <PasswordStep hidden={hidden} reply={reply?.step === 'password' ? reply : undefined} />
      )}
    </OpsCard>
  )
}

type Reply = NonNullable<ReturnType<typeof useActionData<typeof action>>>

function PasswordStep({ hidden, reply }: { hidden: JSX.Element; reply?: Reply }) {
  const [form, fields] = useSchemaForm(() => import('~/ops/sign-in-schemas').then((m) => m.passwordSchema), {
    id: 'ops-login',
    lastResult: reply?.result,
  })
  const pending = usePendingIntent('password')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <p className="cl-muted">For Cardlane staff. Customers sign in in the app.</p>
      <Field
        label="Work e-mail"
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'username' }}
        errors={fields.email.errors}
      />
      <PasswordField
        label="Password"
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
        errors={fields.password.errors}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="password" variant="primary" block pending={pending}>
        Continue
      </Button>
    </Form>
  )
}

function CodeStep({ email, hidden, reply }: { email: string; hidden: JSX.Element; reply?: Reply }) {
  const [form, fields] = useSchemaForm(() => import('~/ops/sign-in-schemas').then((m) => m.codeSchema), {
    id: 'ops-code',
    lastResult: reply?.result,
  })
  const pending = usePendingIntent('code')
  return (
    <>
      <Form method="post" className="cl-form" {...getFormProps(form)}>
        {hidden}
        <p className="cl-muted">
          Signing in as <strong>{email}</strong>. {opsMessages.codeStep}.
        </p>
        <Field
          label="Authenticator code"
          inputProps={{
            ...getInputProps(fields.code, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'one-time-code',
            pattern: '[0-9]{6}',
            maxLength: 6,
            autoFocus: true,
          }}
          errors={fields.code.errors}
        />
        <FormError errors={form.errors} id={form.errorId} />
        <Button type="submit" name="intent" value="code" variant="primary" block pending={pending}>
          Sign in
        </Button>
      </Form>
      <Form method="post">
        {hidden}
        <button type="submit" name="intent" value="restart" className="ops-button ops-button--ghost">
          Use another account
        </button>
      </Form>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
