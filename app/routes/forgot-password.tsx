import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import type { ActionFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { z } from 'zod'
import { CodeType, emailField, passwordField, PASSWORD_MIN, verifyCodeField } from '#contract/accounts'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { CodeSentNote, EmailStepForm, ResendButton } from '~/components/code-steps'
import { CodeField, FormError, PasswordField } from '~/components/forms'
import { Screen } from '~/components/screen'
import { secretKey, type CodeStepReply } from '~/utils/email-code'
import { sendCodeStep, stepEmail } from '~/utils/email-code.server'
import { resetPasswordFlow } from '~/upstream/accounts.server'
import { formRefusal, readForm } from '~/utils/form.server'
import { successMessages } from '~/utils/messages'
import { emptySession } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'

const resetSchema = z.object({ email: emailField, verifyCode: verifyCodeField, password: passwordField })

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request)
  if (formData.get('intent') === 'send-code') return sendCodeStep(request, formData, CodeType.RESET_PASSWORD)

  const submission = parseWithZod(formData, { schema: resetSchema })
  const base = { step: 'verify' as const, email: stepEmail(formData) }
  if (submission.status !== 'success') return formRefusal(submission, base)
  const result = await resetPasswordFlow(request, submission.value)
  if (!result.success) return formRefusal(submission, base, result.msg)
  // The reset revoked every token of the account: whoever was signed in here starts over.
  return redirectWithToast(request, '/login', { type: 'success', message: successMessages.passwordReset }, { session: await emptySession() })
}

export default function ForgotPasswordScreen() {
  const actionData = useActionData<typeof action>()
  const verifying = actionData?.step === 'verify' && actionData.email
  return (
    <Screen title="Forgot Password" backTo="/login">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-auth">
        <header className="cl-auth__header">
          <h2 className="cl-auth__title">Reset your password</h2>
          <p className="cl-auth__lead">
            {verifying ? 'Enter the code and choose a new password. You will be signed out everywhere.' : 'We will e-mail you a code to set a new password.'}
          </p>
        </header>
        {verifying ? (
          <ResetForm reply={actionData} email={actionData.email!} />
        ) : (
          <EmailStepForm id="forgot-email" reply={actionData} help="The e-mail you signed up with." submitLabel="Send code" />
        )}
        <p className="cl-auth__footer">
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </Screen>
  )
}

function ResetForm({ reply, email }: { reply: CodeStepReply; email: string }) {
  const [form, fields] = useSchemaForm(resetSchema, { id: 'forgot-reset', lastResult: reply.result })
  const pending = usePendingIntent('reset')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="step" value="verify" />
      <CodeSentNote email={email} changeHref="/forgot-password" />
      <CodeField label="Verification code" inputProps={{ ...getInputProps(fields.verifyCode, { type: 'text' }), key: secretKey(fields.verifyCode.key, reply) }} errors={fields.verifyCode.errors} />
      <PasswordField
        label="New password"
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), key: secretKey(fields.password.key, reply), autoComplete: 'new-password' }}
        errors={fields.password.errors}
        help={`At least ${PASSWORD_MIN} characters.`}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="reset" variant="primary" block pending={pending}>
        Set new password
      </Button>
      <ResendButton />
    </Form>
  )
}
