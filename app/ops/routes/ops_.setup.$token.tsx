import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { STAFF_PASSWORD_MIN } from '#contract/ops/staff-rules'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, PasswordField } from '~/components/forms'
import { opsFailure, opsMessages } from '~/ops/messages'
import { OPS_LOGIN, redirectWithStaffToast } from '~/ops/session.server'
import { OpsCard, opsMeta } from '~/ops/shell'
import { setupSchema } from '~/ops/sign-in-schemas'
import { setupCompleteFlow, setupStartFlow } from '~/ops/staff.server'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { secretQrSvg } from '~/utils/qr.server'

export const meta = opsMeta
// The page shows an authenticator seed: no cache anywhere may keep it.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' })

const TOKEN = /^[A-Za-z0-9_-]{20,128}$/

/**
 * The one-time set-up link `npm run ops -- staff add` (or an admin) made: its authenticator key,
 * the same at every opening (a preview, a prefetch, the page again after a refused attempt; the
 * api's rule), shown as a QR code and as text to type. The person chooses a password and proves
 * the app with its first code.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const token = params.token ?? ''
  const dead = () => data({ ok: false as const, message: opsMessages.setupLinkDead }, { status: 410 })
  if (!TOKEN.test(token)) return dead()
  const started = await setupStartFlow(request, context, token)
  if (!started.success) {
    if (started.code === Refusals.STAFF_SETUP_INVALID.code || started.status === 400) return dead()
    // The per-address lock says how long it lasts; never an error page.
    if (started.code === 429 && started.retryAfter)
      return data(
        { ok: false as const, message: opsFailure(started).msg },
        { status: 429, headers: { 'Retry-After': String(started.retryAfter) } },
      )
    throw data({ message: started.msg }, { status: 503 })
  }
  const { email, role, otpauthUri, secret } = started.data
  return { ok: true as const, email, role, secret, qr: await secretQrSvg(otpauthUri), ...formConstraints({ 'ops-setup': setupSchema }) }
}

// With JavaScript a failed attempt keeps the page as it is (the key is the same either way).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' ? false : defaultShouldRevalidate

export async function action({ request, context, params }: ActionFunctionArgs) {
  const token = params.token ?? ''
  const form = await readForm(context, request)
  const submission = parseWithZod(form, { schema: setupSchema })
  if (!TOKEN.test(token)) return formRefusal(submission, {}, opsMessages.setupLinkDead)
  if (submission.status !== 'success') return formRefusal(submission, {})
  const { password, code } = submission.value
  const result = await setupCompleteFlow(request, context, { token, password, code })
  if (!result.success) return formRefusal(submission, {}, opsFailure(result))
  return redirectWithStaffToast(request, OPS_LOGIN, { type: 'success', message: opsMessages.setupDone })
}

export default function StaffSetup() {
  const data = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  if (!data.ok)
    return (
      <OpsCard title="Set-up link" toast={null}>
        <p>{data.message}</p>
      </OpsCard>
    )
  return (
    <OpsCard title="Set up your console account" toast={null}>
      <ActionToast toast={reply?.toast} />
      <p>
        <strong>{data.email}</strong> · {data.role}
      </p>
      <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…).</p>
      <div className="ops-qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: data.qr }} />
      <p className="cl-muted">
        Cannot scan? Type this key: <span className="ops-secret">{data.secret.replace(/(.{4})(?=.)/g, '$1 ')}</span>
      </p>
      <SetupForm reply={reply} />
    </OpsCard>
  )
}

function SetupForm({ reply }: { reply: ReturnType<typeof useActionData<typeof action>> }) {
  const [form, fields] = useSchemaForm(() => import('~/ops/sign-in-schemas').then((m) => m.setupSchema), {
    id: 'ops-setup',
    lastResult: reply?.result,
  })
  const pending = usePendingIntent()
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      <PasswordField
        label={`Choose a password (${STAFF_PASSWORD_MIN} characters or more)`}
        inputProps={{
          ...getInputProps(fields.password, { type: 'password' }),
          autoComplete: 'new-password',
          minLength: STAFF_PASSWORD_MIN,
        }}
        errors={fields.password.errors}
      />
      <PasswordField
        label="The password again"
        inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
        errors={fields.confirmPassword.errors}
      />
      <Field
        label="The 6-digit code your app shows now"
        inputProps={{ ...getInputProps(fields.code, { type: 'text' }), inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 }}
        errors={fields.code.errors}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" variant="primary" block pending={pending}>
        Finish set-up
      </Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
