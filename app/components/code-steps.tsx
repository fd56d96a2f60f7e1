// The two steps of every e-mail-code flow, as forms: step one sends the code (asking for the
// address, or — for the signed-in types 4 and 5 — to the person's own address, with no e-mail
// field), step two checks the code together with the flow's own fields (a new password, a PIN).
// Their actions are sendCodeStep and verifyCodeStep in upstream/email-code.server.ts.
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import type { CodeStepReply } from '~/utils/email-code'
import { usePendingIntent, useSecretKey } from '~/utils/form-state'
import { useSchemaForm } from '~/utils/forms'
import { lockoutMessages } from '~/utils/messages'
import { Button } from './button'
import { CodeField, Field, FormError, PasswordField } from './forms'
import { Link } from './link'

/** Step one: ask for the address (or use the person's own) and send the code. */
export function SendCodeForm(props: {
  id: string
  reply?: CodeStepReply
  help: string
  submitLabel: string
  hidden?: ReactNode
  /** The signed-in person's address (types 4 and 5): no e-mail field, the code goes there. */
  ownAddress?: string
}) {
  return props.ownAddress ? <OwnAddressForm {...props} ownAddress={props.ownAddress} /> : <AddressForm {...props} />
}

function AddressForm({ id, reply, help, submitLabel, hidden }: Parameters<typeof SendCodeForm>[0]) {
  const [form, fields] = useSchemaForm(() => import('~/utils/email-code').then((m) => m.emailStepSchema), {
    id,
    lastResult: reply?.step === 'email' ? reply.result : undefined,
    defaultValue: { email: reply?.email ?? '' },
  })
  const pending = usePendingIntent('send-code')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      <Field
        label="E-mail"
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
        errors={fields.email.errors}
        help={help}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="send-code" variant="primary" block pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  )
}

function OwnAddressForm({ id, reply, help, submitLabel, hidden, ownAddress }: Parameters<typeof SendCodeForm>[0] & { ownAddress: string }) {
  const pending = usePendingIntent('send-code')
  const errors = reply?.step === 'email' ? reply.result.error?.[''] : undefined
  return (
    <Form method="post" className="cl-form" id={id}>
      {hidden}
      <p className="cl-form__note">
        {help} We will send it to <strong>{ownAddress}</strong>.
      </p>
      <FormError errors={errors} id={`${id}-form-error`} />
      <Button type="submit" name="intent" value="send-code" variant="primary" block pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  )
}

type VerifySchema = z.ZodObject<{ verifyCode: z.ZodTypeAny } & z.ZodRawShape>
type Fields<Schema extends VerifySchema> = ReturnType<typeof useSchemaForm<Schema>>[1]

/**
 * Step two: where the code went, the code, the flow's own fields (`children`, given the form's
 * fields), the refusal beside the button, and "Send a new code".
 */
export function VerifyStepForm<Schema extends VerifySchema>({
  id,
  schema,
  reply,
  email,
  ownAddress = false,
  changeHref,
  intent,
  submitLabel,
  hidden,
  lockoutHref,
  children,
}: {
  id: string
  /** The step's schema, loaded on the form's first use (`useSchemaForm`). */
  schema: () => Promise<Schema>
  reply?: CodeStepReply
  /** Where the code went, as shown to the person. */
  email: string
  /** The person's own address (types 4 and 5): not carried in the form, not changeable. */
  ownAddress?: boolean
  /** Step one again, to use another address (not for the person's own address). */
  changeHref?: string
  intent: string
  submitLabel: string
  hidden?: ReactNode
  /** Where to go when locked out (sign-in by code); no link when absent. */
  lockoutHref?: string
  children?: (fields: Fields<Schema>, reply?: CodeStepReply) => ReactNode
}) {
  const [form, fields] = useSchemaForm(schema, { id, lastResult: reply?.result })
  const pending = usePendingIntent(intent)
  const code = (fields as unknown as Record<'verifyCode', Parameters<typeof getInputProps>[0]>).verifyCode
  const codeKey = useSecretKey(code.key, reply, 'verifyCode')
  return (
    <Form method="post" className="cl-form" {...getFormProps(form)}>
      {hidden}
      {ownAddress ? null : <input type="hidden" name="email" value={email} />}
      <input type="hidden" name="step" value="verify" />
      <CodeSentNote email={email} changeHref={ownAddress ? undefined : changeHref} />
      <CodeField label="Verification code" inputProps={{ ...getInputProps(code, { type: 'text' }), key: codeKey }} errors={code.errors} />
      {children?.(fields, reply)}
      <FormError errors={form.errors} id={form.errorId}>
        {reply?.lockout && lockoutHref ? <LockoutLink to={lockoutHref} /> : null}
      </FormError>
      <Button type="submit" name="intent" value={intent} variant="primary" block pending={pending}>
        {submitLabel}
      </Button>
      <ResendButton />
    </Form>
  )
}

/** The new password of a step (sign-up, reset): emptied again only when the answer refused it. */
export function StepPasswordField({
  field,
  reply,
  label,
  help,
}: {
  field: Parameters<typeof getInputProps>[0]
  reply?: CodeStepReply
  label: string
  help: string
}) {
  const key = useSecretKey(field.key, reply, 'password')
  return (
    <PasswordField
      label={label}
      inputProps={{ ...getInputProps(field, { type: 'password' }), key, autoComplete: 'new-password' }}
      errors={field.errors}
      help={help}
    />
  )
}

/** The line above step two: where the code went, and a way back to change the address. */
function CodeSentNote({ email, changeHref }: { email: string; changeHref?: string }) {
  return (
    <p className="cl-form__note">
      Enter the 6-digit code we sent to <strong>{email}</strong>. It expires in 10 minutes.{' '}
      {changeHref ? (
        <Link to={changeHref} replace className="cl-link--inline-touch">
          Use another e-mail
        </Link>
      ) : null}
    </p>
  )
}

/** "Send a new code" inside a step-two form: skips validation of the other fields. */
function ResendButton() {
  const pending = usePendingIntent('send-code')
  return (
    <Button type="submit" name="intent" value="send-code" variant="ghost" block formNoValidate pending={pending}>
      Send a new code
    </Button>
  )
}

/** Under the lockout sentence on sign-in: the way in that a password lockout leaves open. */
export function LockoutLink({ to }: { to: string }) {
  return (
    <p>
      <Link to={to} replace>
        {lockoutMessages.useCode}
      </Link>
    </p>
  )
}
