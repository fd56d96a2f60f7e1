import { getFormProps, getInputProps } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { emailStepSchema, type CodeStepReply } from '~/utils/email-code'
import { Button } from './button'
import { Field, FormError } from './forms'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'

/** Step one of every e-mail-code flow: ask for the address, send the code. */
export function EmailStepForm({
  id,
  reply,
  help,
  submitLabel,
  hidden,
}: {
  id: string
  reply?: CodeStepReply
  help: string
  submitLabel: string
  hidden?: ReactNode
}) {
  const [form, fields] = useSchemaForm(emailStepSchema, {
    id,
    lastResult: reply?.step === 'email' ? reply.result : undefined,
    defaultValue: { email: reply?.email ?? '' },
  })
  const pending = usePendingIntent('send-code')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <Field label="E-mail" inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} help={help} />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="send-code" variant="primary" block pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  )
}

/** The line above step two: where the code went, and a way back to change the address. */
export function CodeSentNote({ email, changeHref }: { email: string; changeHref: string }) {
  return (
    <p className="cl-form__note">
      Enter the 6-digit code we sent to <strong>{email}</strong>. It expires in 10 minutes.{' '}
      <Link to={changeHref} replace>
        Use another e-mail
      </Link>
    </p>
  )
}

/** "Send a new code" inside a step-two form: skips validation of the other fields. */
export function ResendButton() {
  const pending = usePendingIntent('send-code')
  return (
    <Button type="submit" name="intent" value="send-code" variant="ghost" block formNoValidate pending={pending}>
      Send a new code
    </Button>
  )
}
