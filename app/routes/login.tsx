import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { CodeType } from '#contract/accounts'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { LockoutLink, SendCodeForm, VerifyStepForm } from '~/components/code-steps'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, PasswordField } from '~/components/forms'
import { GoogleSignIn } from '~/components/google-button'
import { Link } from '~/components/link'
import { Screen } from '~/components/screen'
import authStyles from '~/styles/screens/auth.css?url'
import { loginByCodeFlow, loginFlow } from '~/upstream/accounts.server'
import { refuseForm, sendCodeStep, verifyCodeStep } from '~/upstream/email-code.server'
import { redirectSignedIn, requireAnonymous } from '~/utils/auth.server'
import { codeSchema, emailStepSchema, loginPasswordSchema as passwordSchema, type CodeStepReply } from '~/utils/email-code'
import { usePendingIntent, useSecretKey } from '~/utils/form-state'
import { formConstraints, readForm } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { takeLoginEmail } from '~/utils/login-email.server'
import { safeRedirect } from '~/utils/redirect'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(authStyles)
export const links = stylesheetLinks(handle)

type Mode = 'password' | 'code'
type Reply = CodeStepReply & { mode: Mode }

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  const url = new URL(request.url)
  // After a password reset: the address it was reset for, filled in once.
  const { email, headers } = await takeLoginEmail(request)
  return data(
    {
      mode: (url.searchParams.get('mode') === 'code' ? 'code' : 'password') as Mode,
      redirectTo: safeRedirect(url.searchParams.get('redirectTo'), ''),
      email,
      ...formConstraints({ 'login-password': passwordSchema, 'login-code-email': emailStepSchema, 'login-code-verify': codeSchema }),
    },
    { headers },
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request)
  const formData = await readForm(context, request)
  const intent = formData.get('intent')
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/')
  const signIn = (token: string, email: string) =>
    redirectSignedIn(request, token, { to: redirectTo, message: successMessages.loggedIn, email })

  if (intent === 'send-code') return sendCodeStep(request, context, formData, CodeType.LOGIN, { mode: 'code' as Mode })
  if (intent === 'code') {
    return verifyCodeStep(formData, {
      schema: codeSchema,
      extra: { mode: 'code' as Mode },
      run: (value) => loginByCodeFlow(request, context, value),
      done: (token, value) => signIn(token, value.email),
    })
  }

  const submission = parseWithZod(formData, { schema: passwordSchema })
  const base = { mode: 'password' as Mode, step: 'email' as const }
  if (submission.status !== 'success') return refuseForm(submission, base)
  const result = await loginFlow(request, context, submission.value)
  if (!result.success) return refuseForm(submission, base, result)
  return signIn(result.data, submission.value.email)
}

export default function LoginScreen() {
  const { mode: loaderMode, redirectTo, email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const env = usePublicEnv()
  const mode = actionData?.mode ?? loaderMode
  const withRedirect = (path: string) =>
    redirectTo ? `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ redirectTo })}` : path
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  const codeReply = actionData?.mode === 'code' ? actionData : undefined

  return (
    <Screen backTo="/">
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
          <Link
            to={withRedirect('/login?mode=code')}
            replace
            className="cl-segmented__item"
            aria-current={mode === 'code' ? 'page' : undefined}
          >
            E-mail code
          </Link>
        </nav>

        {mode === 'password' ? (
          <PasswordForm
            hidden={hidden}
            reply={actionData?.mode === 'password' ? actionData : undefined}
            codeHref={withRedirect('/login?mode=code')}
            email={email}
          />
        ) : codeReply?.step === 'verify' && codeReply.email ? (
          <VerifyStepForm
            id="login-code-verify"
            schema={() => import('~/utils/email-code').then((m) => m.codeSchema)}
            reply={codeReply}
            email={codeReply.email}
            changeHref={withRedirect('/login?mode=code')}
            intent="code"
            submitLabel="Sign in"
            hidden={hidden}
          />
        ) : (
          <SendCodeForm
            id="login-code-email"
            reply={codeReply}
            help="We will e-mail you a 6-digit code. No password needed."
            submitLabel="Send code"
            hidden={hidden}
          />
        )}

        {env.googleEnabled ? <GoogleSignIn redirectTo={redirectTo} /> : null}

        <p className="cl-auth__footer">
          New to {env.brandName}? <Link to={withRedirect('/register')}>Create an account</Link>
        </p>
      </div>
    </Screen>
  )
}

function PasswordForm({ hidden, reply, codeHref, email }: { hidden: JSX.Element; reply?: Reply; codeHref: string; email: string | null }) {
  const [form, fields] = useSchemaForm(() => import('~/utils/email-code').then((m) => m.loginPasswordSchema), {
    id: 'login-password',
    lastResult: reply?.result,
    defaultValue: email ? { email } : undefined,
  })
  const pending = usePendingIntent('password')
  const passwordKey = useSecretKey(fields.password.key, reply, 'password')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <Field
        label="E-mail"
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
        errors={fields.email.errors}
      />
      <PasswordField
        label="Password"
        inputProps={{
          ...getInputProps(fields.password, { type: 'password' }),
          key: passwordKey,
          autoComplete: 'current-password',
        }}
        errors={fields.password.errors}
      />
      <p className="cl-form__aside">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <FormError errors={form.errors} id={form.errorId}>
        {reply?.lockout ? <LockoutLink to={codeHref} /> : null}
      </FormError>
      <Button type="submit" name="intent" value="password" variant="primary" block pending={pending}>
        Sign in
      </Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
