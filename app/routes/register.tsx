import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { CodeType } from '#contract/accounts'
import { PASSWORD_MIN } from '#contract/password-rules'
import { ActionToast } from '~/components/action-toast'
import { SendCodeForm, StepPasswordField, VerifyStepForm } from '~/components/code-steps'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { GoogleSignIn } from '~/components/google-button'
import { Link } from '~/components/link'
import { Screen } from '~/components/screen'
import authStyles from '~/styles/screens/auth.css?url'
import { registerFlow } from '~/upstream/accounts.server'
import { sendCodeStep, verifyCodeStep } from '~/upstream/email-code.server'
import { redirectSignedIn, requireAnonymous } from '~/utils/auth.server'
import { codePasswordSchema, emailStepSchema } from '~/utils/email-code'
import { formConstraints, readForm } from '~/utils/form.server'
import { safeRedirect } from '~/utils/redirect'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(authStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request)
  return {
    redirectTo: safeRedirect(new URL(request.url).searchParams.get('redirectTo'), ''),
    ...formConstraints({ 'register-verify': codePasswordSchema, 'register-email': emailStepSchema }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request)
  const formData = await readForm(context, request)
  if (formData.get('intent') === 'send-code') return sendCodeStep(request, context, formData, CodeType.REGISTER)
  return verifyCodeStep(formData, {
    schema: codePasswordSchema,
    run: (value) => registerFlow(request, context, value),
    done: (token, value) =>
      redirectSignedIn(request, token, {
        to: safeRedirect(formData.get('redirectTo'), '/'),
        message: successMessages.registered,
        email: value.email,
      }),
  })
}

export default function RegisterScreen() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const env = usePublicEnv()
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  const verifying = actionData?.step === 'verify' && actionData.email ? actionData.email : undefined

  return (
    <Screen backTo="/">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-auth">
        <header className="cl-auth__header">
          <h2 className="cl-auth__title">Create your account</h2>
          <p className="cl-auth__lead">Sell gift cards at the rate you are quoted, and withdraw to your bank.</p>
        </header>
        <ol className="cl-steps" aria-label="Steps">
          <li className="cl-steps__item" aria-current={verifying ? undefined : 'step'}>
            E-mail
          </li>
          <li className="cl-steps__item" aria-current={verifying ? 'step' : undefined}>
            Code and password
          </li>
        </ol>

        {verifying ? (
          <VerifyStepForm
            id="register-verify"
            schema={() => import('~/utils/email-code').then((m) => m.codePasswordSchema)}
            reply={actionData}
            email={verifying}
            changeHref="/register"
            intent="register"
            submitLabel="Create account"
            hidden={hidden}
          >
            {(fields, reply) => (
              <StepPasswordField
                field={fields.password}
                reply={reply}
                label="Choose a password"
                help={`At least ${PASSWORD_MIN} characters. Avoid passwords you use elsewhere.`}
              />
            )}
          </VerifyStepForm>
        ) : (
          <SendCodeForm
            id="register-email"
            reply={actionData}
            help="We will e-mail you a 6-digit code to confirm it is yours."
            submitLabel="Send code"
            hidden={hidden}
          />
        )}

        {env.googleEnabled && !verifying ? <GoogleSignIn redirectTo={redirectTo} /> : null}

        <p className="cl-auth__footer">
          Already have an account? <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : '/login'}>Sign in</Link>
        </p>
        <p className="cl-auth__legal">
          By creating an account you agree to how {env.brandName} handles your data, described in our{' '}
          <Link to="/user/privacy" className="cl-link--inline-touch">
            Privacy Policy
          </Link>
          .
        </p>
      </div>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
