import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { CodeType, emailField, loginPasswordField, verifyCodeField } from '#contract/accounts'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { CodeSentNote, EmailStepForm, ResendButton } from '~/components/code-steps'
import { CodeField, Field, FormError, PasswordField } from '~/components/forms'
import { GoogleSignIn } from '~/components/google-button'
import { Screen } from '~/components/screen'
import type { loader as rootLoader } from '~/root'
import { redirectSignedIn, requireAnonymous } from '~/utils/auth.server'
import { secretKey, type CodeStepReply } from '~/utils/email-code'
import { sendCodeStep, stepEmail } from '~/utils/email-code.server'
import { loginByCodeFlow, loginFlow } from '~/upstream/accounts.server'
import { formRefusal, readForm } from '~/utils/form.server'
import { successMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'

const passwordSchema = z.object({ email: emailField, password: loginPasswordField })
const codeSchema = z.object({ email: emailField, verifyCode: verifyCodeField })

type Mode = 'password' | 'code'
type Reply = CodeStepReply & { mode: Mode }

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  const url = new URL(request.url)
  return json({
    mode: (url.searchParams.get('mode') === 'code' ? 'code' : 'password') as Mode,
    redirectTo: safeRedirect(url.searchParams.get('redirectTo'), ''),
  })
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request)
  const formData = await readForm(request)
  const intent = formData.get('intent')
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/')

  const signIn = (token: string, email: string) => redirectSignedIn(token, { to: redirectTo, message: successMessages.loggedIn, email })
  if (intent === 'send-code') return sendCodeStep(request, formData, CodeType.LOGIN, { mode: 'code' as Mode })

  if (intent === 'code') {
    const submission = parseWithZod(formData, { schema: codeSchema })
    const base = { mode: 'code' as Mode, step: 'verify' as const, email: stepEmail(formData) }
    if (submission.status !== 'success') return formRefusal(submission, base)
    const result = await loginByCodeFlow(request, submission.value)
    if (!result.success) return formRefusal(submission, base, result.msg)
    return signIn(result.data, submission.value.email)
  }

  const submission = parseWithZod(formData, { schema: passwordSchema })
  const base = { mode: 'password' as Mode, step: 'email' as const }
  if (submission.status !== 'success') return formRefusal(submission, base)
  const result = await loginFlow(request, submission.value)
  if (!result.success) return formRefusal(submission, base, result.msg)
  return signIn(result.data, submission.value.email)
}

export default function LoginScreen() {
  const { mode: loaderMode, redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const mode = actionData?.mode ?? loaderMode
  const withRedirect = (path: string) =>
    redirectTo ? `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ redirectTo })}` : path
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />

  return (
    <Screen title="Login" backTo="/">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-auth">
        <header className="cl-auth__header">
          <h2 className="cl-auth__title">Welcome back</h2>
          <p className="cl-auth__lead">Sign in to sell cards and reach your wallet.</p>
        </header>

        <nav className="cl-segmented" aria-label="How to sign in">
          <Link to={withRedirect('/login')} replace className="cl-segmented__item" aria-current={mode === 'password' ? 'page' : undefined}>
            Password
          </Link>
          <Link to={withRedirect('/login?mode=code')} replace className="cl-segmented__item" aria-current={mode === 'code' ? 'page' : undefined}>
            E-mail code
          </Link>
        </nav>

        {mode === 'password' ? (
          <PasswordForm hidden={hidden} reply={actionData?.mode === 'password' ? actionData : undefined} />
        ) : actionData?.mode === 'code' && actionData.step === 'verify' && actionData.email ? (
          <CodeForm hidden={hidden} reply={actionData} email={actionData.email} changeHref={withRedirect('/login?mode=code')} />
        ) : (
          <EmailStepForm
            id="login-code-email"
            reply={actionData?.mode === 'code' ? actionData : undefined}
            help="We will e-mail you a 6-digit code. No password needed."
            submitLabel="Send code"
            hidden={hidden}
          />
        )}

        {root?.env.googleEnabled ? <GoogleSignIn redirectTo={redirectTo} /> : null}

        <p className="cl-auth__footer">
          New to {root?.env.brandName ?? 'Cardlane'}? <Link to={withRedirect('/register')}>Create an account</Link>
        </p>
      </div>
    </Screen>
  )
}

function PasswordForm({ hidden, reply }: { hidden: JSX.Element; reply?: Reply }) {
  const [form, fields] = useSchemaForm(passwordSchema, { id: 'login-password', lastResult: reply?.result })
  const pending = usePendingIntent('password')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <Field label="E-mail" inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} />
      <PasswordField
        label="Password"
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), key: secretKey(fields.password.key, reply), autoComplete: 'current-password' }}
        errors={fields.password.errors}
      />
      <p className="cl-form__aside">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="password" variant="primary" block pending={pending}>
        Sign in
      </Button>
    </Form>
  )
}

function CodeForm({ hidden, reply, email, changeHref }: { hidden: JSX.Element; reply: Reply; email: string; changeHref: string }) {
  const [form, fields] = useSchemaForm(codeSchema, { id: 'login-code-verify', lastResult: reply.result })
  const pending = usePendingIntent('code')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="step" value="verify" />
      <CodeSentNote email={email} changeHref={changeHref} />
      <CodeField label="Verification code" inputProps={{ ...getInputProps(fields.verifyCode, { type: 'text' }), key: secretKey(fields.verifyCode.key, reply) }} errors={fields.verifyCode.errors} />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="code" variant="primary" block pending={pending}>
        Sign in
      </Button>
      <ResendButton />
    </Form>
  )
}
