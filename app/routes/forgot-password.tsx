import type { ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { CodeType } from '#contract/accounts'
import { PASSWORD_MIN } from '#contract/password-rules'
import { ActionToast } from '~/components/action-toast'
import { SendCodeForm, StepPasswordField, VerifyStepForm } from '~/components/code-steps'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Link } from '~/components/link'
import { Screen } from '~/components/screen'
import authStyles from '~/styles/screens/auth.css?url'
import { resetPasswordFlow } from '~/upstream/accounts.server'
import { sendCodeStep, verifyCodeStep } from '~/upstream/email-code.server'
import { codePasswordSchema, emailStepSchema } from '~/utils/email-code'
import { formConstraints, readForm } from '~/utils/form.server'
import { rememberLoginEmail } from '~/utils/login-email.server'
import { emptySession } from '~/utils/session.server'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(authStyles)
export const links = stylesheetLinks(handle)

export const loader = () => formConstraints({ 'forgot-reset': codePasswordSchema, 'forgot-email': emailStepSchema })

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(context, request)
  if (formData.get('intent') === 'send-code') return sendCodeStep(request, context, formData, CodeType.RESET_PASSWORD)
  return verifyCodeStep(formData, {
    schema: codePasswordSchema,
    run: (value) => resetPasswordFlow(request, context, value),
    // The reset revoked every token of the account: whoever was signed in here starts over, and
    // /login shows the address the password was reset for.
    done: async (_, value) =>
      redirectWithToast(
        request,
        '/login',
        { type: 'success', message: successMessages.passwordReset },
        { session: await emptySession(), headers: { 'Set-Cookie': await rememberLoginEmail(value.email) } },
      ),
  })
}

export default function ForgotPasswordScreen() {
  const actionData = useActionData<typeof action>()
  const verifying = actionData?.step === 'verify' && actionData.email ? actionData.email : undefined
  return (
    <Screen backTo="/login">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-auth">
        <header className="cl-auth__header">
          <h2 className="cl-auth__title">Reset your password</h2>
          <p className="cl-auth__lead">
            {verifying
              ? 'Enter the code and choose a new password. You will be signed out everywhere.'
              : 'We will e-mail you a code to set a new password.'}
          </p>
        </header>
        {verifying ? (
          <VerifyStepForm
            id="forgot-reset"
            schema={() => import('~/utils/email-code').then((m) => m.codePasswordSchema)}
            reply={actionData}
            email={verifying}
            changeHref="/forgot-password"
            intent="reset"
            submitLabel="Set new password"
          >
            {(fields, reply) => (
              <StepPasswordField field={fields.password} reply={reply} label="New password" help={`At least ${PASSWORD_MIN} characters.`} />
            )}
          </VerifyStepForm>
        ) : (
          <SendCodeForm id="forgot-email" reply={actionData} help="The e-mail you signed up with." submitLabel="Send code" />
        )}
        <p className="cl-auth__footer">
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
