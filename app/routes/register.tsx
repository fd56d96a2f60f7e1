import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { CodeType, emailField, passwordField, PASSWORD_MIN, verifyCodeField } from '#contract/accounts'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { CodeSentNote, EmailStepForm, ResendButton } from '~/components/code-steps'
import { CodeField, FormError, PasswordField } from '~/components/forms'
import { GoogleSignIn } from '~/components/google-button'
import { Screen } from '~/components/screen'
import type { loader as rootLoader } from '~/root'
import { redirectSignedIn, requireAnonymous } from '~/utils/auth.server'
import { secretKey, type CodeStepReply } from '~/utils/email-code'
import { sendCodeStep, stepEmail } from '~/utils/email-code.server'
import { registerFlow } from '~/upstream/accounts.server'
import { formRefusal, readForm } from '~/utils/form.server'
import { successMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'

const registerSchema = z.object({ email: emailField, verifyCode: verifyCodeField, password: passwordField })

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  return json({ redirectTo: safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '') })
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request)
  const formData = await readForm(request)
  if (formData.get('intent') === 'send-code') return sendCodeStep(request, formData, CodeType.REGISTER)

  const submission = parseWithZod(formData, { schema: registerSchema })
  const base = { step: 'verify' as const, email: stepEmail(formData) }
  if (submission.status !== 'success') return formRefusal(submission, base)
  const result = await registerFlow(request, submission.value)
  if (!result.success) return formRefusal(submission, base, result.msg)
  return redirectSignedIn(result.data, {
    to: safeRedirect(formData.get('redirectTo'), '/'),
    message: successMessages.registered,
    email: submission.value.email,
  })
}

export default function RegisterScreen() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const brand = root?.env.brandName ?? 'Cardlane'
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  const verifying = actionData?.step === 'verify' && actionData.email

  return (
    <Screen title="Register" backTo="/">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-auth">
        <header className="cl-auth__header">
          <h2 className="cl-auth__title">Create your account</h2>
          <p className="cl-auth__lead">Sell gift cards at the rate you are quoted, and withdraw to your bank.</p>
        </header>
        <ol className="cl-steps" aria-label="Steps">
          <li className="cl-steps__item" aria-current={verifying ? undefined : 'step'}>E-mail</li>
          <li className="cl-steps__item" aria-current={verifying ? 'step' : undefined}>Code and password</li>
        </ol>

        {verifying ? (
          <VerifyForm hidden={hidden} reply={actionData} email={actionData.email!} />
        ) : (
          <EmailStepForm id="register-email" reply={actionData} help="We will e-mail you a 6-digit code to confirm it is yours." submitLabel="Send code" hidden={hidden} />
        )}

        {root?.env.googleEnabled && !verifying ? <GoogleSignIn redirectTo={redirectTo} /> : null}

        <p className="cl-auth__footer">
          Already have an account? <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'}>Sign in</Link>
        </p>
        <p className="cl-auth__legal">
          By creating an account you agree to how {brand} handles your data, described in our <Link to="/user/privacy">Privacy Policy</Link>.
        </p>
      </div>
    </Screen>
  )
}

function VerifyForm({ hidden, reply, email }: { hidden: JSX.Element; reply: CodeStepReply; email: string }) {
  const [form, fields] = useSchemaForm(registerSchema, { id: 'register-verify', lastResult: reply.result })
  const pending = usePendingIntent('register')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="step" value="verify" />
      <CodeSentNote email={email} changeHref="/register" />
      <CodeField label="Verification code" inputProps={{ ...getInputProps(fields.verifyCode, { type: 'text' }), key: secretKey(fields.verifyCode.key, reply) }} errors={fields.verifyCode.errors} />
      <PasswordField
        label="Choose a password"
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), key: secretKey(fields.password.key, reply), autoComplete: 'new-password' }}
        errors={fields.password.errors}
        help={`At least ${PASSWORD_MIN} characters. Avoid passwords you use elsewhere.`}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="register" variant="primary" block pending={pending}>
        Create account
      </Button>
      <ResendButton />
    </Form>
  )
}
