// Set Withdrawal PIN (SPEC §2, login): the first PIN, typed twice, then back to where the person
// was going (adding a bank account, withdrawing). Someone who has a PIN changes it instead.
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { answerRefusals, FormError, leaveErrorAction, useErrorAction } from '~/components/forms'
import { NewPinFields, PIN_FIELDS } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css?url'
import { loaded } from '~/upstream/flow.server'
import { setPinFlow } from '~/upstream/pin.server'
import { walletInfoFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { newPinSchema } from '~/utils/pin-schemas'
import { safeRedirect } from '~/utils/redirect'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

/** `?redirectTo=` kept on the way to another PIN screen. */
const withRedirect = (path: string, redirectTo: string) => (redirectTo ? `${path}?${new URLSearchParams({ redirectTo })}` : path)

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  const info = loaded(await walletInfoFlow(request, context))
  if (info.hasPin) throw redirect(withRedirect('/change-pin', redirectTo))
  return { redirectTo, ...formConstraints({ 'set-pin': newPinSchema }) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/wallet')
  const submission = parseWithZod(formData, { schema: newPinSchema })
  if (submission.status !== 'success') return formRefusal(submission, { refused: PIN_FIELDS })
  const result = await setPinFlow(request, context, { pin: submission.value.pin })
  if (!result.success) {
    if (result.code === Refusals.PIN_ALREADY_SET.code) {
      return redirectWithToast(
        request,
        leaveErrorAction(request, withRedirect('/change-pin', safeRedirect(formData.get('redirectTo'), ''))),
        {
          type: 'info',
          message: result.msg,
        },
      )
    }
    return formRefusal(submission, { refused: PIN_FIELDS }, result)
  }
  return redirectWithToast(request, leaveErrorAction(request, redirectTo), { type: 'success', message: successMessages.pinSet })
}

export default function SetPinScreen() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(() => import('~/utils/pin-schemas').then((m) => m.newPinSchema), {
    id: 'set-pin',
    lastResult: actionData?.result,
  })
  const brand = usePublicEnv().brandName
  const errorAction = useErrorAction(form.errorId)
  return (
    <Screen backTo={redirectTo.startsWith('/wallet') ? '/wallet' : '/account'}>
      <ActionToast toast={actionData?.toast} />
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Protect your withdrawals</h2>
        <p className="cl-formhead__lead">
          Your PIN is asked for every withdrawal and every change to your bank accounts. Nobody at {brand} will ever ask you for it.
        </p>
      </header>
      <Form method="post" action={errorAction} className="cl-form cl-fill" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <NewPinFields fields={fields} reply={actionData} />
        <FormError errors={answerRefusals(form.errors, actionData?.result?.error)} id={form.errorId} />
        <ActionBar>
          <Button type="submit" variant="primary" block pending={usePendingIntent()}>
            Set PIN
          </Button>
        </ActionBar>
      </Form>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
