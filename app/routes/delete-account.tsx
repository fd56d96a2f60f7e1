// Delete Account (SPEC §2, login): what goes and what stays, then the confirmation — the password,
// or for an account without one (Google only) an e-mail code of type 5. While money, orders or
// withdrawals are open the reason comes first and there is no form to fill in vain. A deletion ends
// the session here too (a full page load, so nothing of the account stays on screen).
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { CodeType } from '#contract/accounts'
import { ActionToast } from '~/components/action-toast'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { SendCodeForm, VerifyStepForm } from '~/components/code-steps'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FormError, PasswordField } from '~/components/forms'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { Screen } from '~/components/screen'
import styles from '~/styles/screens/delete-account.css?url'
import { delAccountFlow, delAccountInfoFlow } from '~/upstream/account-deletion.server'
import { sendCodeStep, verifyCodeStep } from '~/upstream/email-code.server'
import { loaded } from '~/upstream/flow.server'
import { requireToken } from '~/utils/auth.server'
import { deletePasswordSchema as passwordSchema, ownCodeSchema as codeSchema, type CodeStepReply } from '~/utils/email-code'
import { usePendingIntent, useSecretKey } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { deleteAccountMessages as M } from '~/utils/messages'
import { emptySession } from '~/utils/session.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'
import { useUser } from '~/utils/user'

export const handle = stylesheetHandle(styles)
export const links = stylesheetLinks(handle)

type Mode = 'password' | 'code'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  return {
    ...loaded(await delAccountInfoFlow(request, context)),
    ...formConstraints({ 'delete-account': passwordSchema, 'delete-account-code': codeSchema }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  const intent = formData.get('intent')

  if (intent === 'send-code') return sendCodeStep(request, context, formData, CodeType.DELETE_ACCOUNT, { mode: 'code' as Mode })
  if (intent === 'delete-code') {
    return verifyCodeStep(formData, {
      schema: codeSchema,
      extra: { mode: 'code' as Mode },
      run: (value) => delAccountFlow(request, context, { verifyCode: value.verifyCode }),
      done: () => deleted(request),
    })
  }

  const submission = parseWithZod(formData, { schema: passwordSchema })
  // Any refusal empties the password again (it is never sent back either).
  const base = { mode: 'password' as Mode, refused: ['password'], attempt: crypto.randomUUID() }
  if (submission.status !== 'success') return formRefusal(submission, base)
  const result = await delAccountFlow(request, context, submission.value)
  if (!result.success) return formRefusal(submission, base, result)
  return deleted(request)
}

/** Signed out here as well: a fresh empty session, the toast, and a full page load of Home. */
async function deleted(request: Request) {
  return redirectWithToast(request, '/', { type: 'success', message: M.deleted }, { session: await emptySession(), document: true })
}

export default function DeleteAccountScreen() {
  const info = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const unblock = info.blocker ? M.unblock[info.blocker.code] : undefined
  return (
    <Screen backTo="/account">
      <ActionToast toast={actionData?.toast} />
      <header className="cl-delete__head">
        <h2 className="cl-title">{M.heading}</h2>
        <p className="cl-lead">{M.lead}</p>
      </header>

      {info.blocker ? (
        <div className="cl-callout cl-callout--warning" role="status">
          <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p className="cl-callout__title">{M.blockedTitle}</p>
            <p>{info.blocker.msg}</p>
            {unblock ? (
              <p>
                <Link to={unblock.to} className="cl-link cl-link--touch">
                  {unblock.label}
                </Link>
              </p>
            ) : null}
          </div>
        </div>
      ) : null}

      <Card title="What you lose" className="cl-delete__card">
        <ul className="cl-delete__list cl-delete__list--lost">
          {M.lost.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Card>
      <Card title="What we keep" className="cl-delete__card">
        <ul className="cl-delete__list">
          {M.kept.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="cl-small">
          <Link to="/user/privacy#deleting" className="cl-link cl-link--touch">
            What is erased and kept, in the privacy policy
          </Link>
        </p>
      </Card>

      {info.blocker ? null : info.confirmWith === 'password' ? (
        <PasswordConfirm reply={actionData?.mode === 'password' ? actionData : undefined} />
      ) : (
        <CodeConfirm reply={actionData?.mode === 'code' ? (actionData as CodeStepReply) : undefined} />
      )}

      {/* Blocked, going back is the one thing left to do; otherwise it stays quieter than the form. */}
      {info.blocker ? (
        <ButtonLink to="/account" variant="secondary" block>
          {M.keep}
        </ButtonLink>
      ) : (
        <p className="cl-center">
          <Link to="/account" className="cl-link cl-link--touch">
            {M.keep}
          </Link>
        </p>
      )}
    </Screen>
  )
}

type PasswordReply = { result: Parameters<typeof useSchemaForm>[1]['lastResult']; refused?: string[] }

function PasswordConfirm({ reply }: { reply?: PasswordReply }) {
  const [form, fields] = useSchemaForm(() => import('~/utils/email-code').then((m) => m.deletePasswordSchema), {
    id: 'delete-account',
    lastResult: reply?.result,
  })
  const pending = usePendingIntent('delete')
  const passwordKey = useSecretKey(fields.password.key, reply, 'password')
  return (
    <Form method="post" className="cl-form cl-delete__form" {...getFormProps(form)}>
      <p className="cl-form__note">{M.confirmPassword}</p>
      <PasswordField
        label="Password"
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), key: passwordKey, autoComplete: 'current-password' }}
        errors={fields.password.errors}
      />
      <FormError errors={form.errors} id={form.errorId} />
      <Button type="submit" name="intent" value="delete" variant="danger" block pending={pending} icon="trash">
        {M.submit}
      </Button>
    </Form>
  )
}

function CodeConfirm({ reply }: { reply?: CodeStepReply }) {
  const user = useUser()
  if (reply?.step === 'verify') {
    return (
      <div className="cl-delete__form">
        <VerifyStepForm
          id="delete-account-code"
          schema={() => import('~/utils/email-code').then((m) => m.ownCodeSchema)}
          reply={reply}
          email={user.email}
          ownAddress
          intent="delete-code"
          submitLabel={M.submit}
        />
      </div>
    )
  }
  return (
    <div className="cl-delete__form">
      <SendCodeForm id="delete-account-send" reply={reply} help={M.confirmCode} submitLabel="Send code" ownAddress={user.email} />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
