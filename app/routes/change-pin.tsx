// Change Withdrawal PIN (SPEC §2, login): the current PIN and a new one twice; the tries left
// and the end of a lock are said before the person types. "Forgot PIN?" (?mode=reset) sends an
// e-mail code to the person's own address and sets a new PIN with it; withdrawals then wait 24 hours.
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { lazy, Suspense } from 'react'
import { CodeType } from '#contract/accounts'
import { PIN_MAX_TRIES } from '#contract/pin-rules'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { answerRefusals, FormError, leaveErrorAction, useErrorAction } from '~/components/forms'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { formatClock } from '~/components/money'
import { NewPinFields, PIN_FIELDS, PinField } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css?url'
import { sendCodeStep, verifyCodeStep } from '~/upstream/email-code.server'
import { loaded } from '~/upstream/flow.server'
import { resetPinFlow, setPinFlow } from '~/upstream/pin.server'
import { walletInfoFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import type { CodeStepReply } from '~/utils/email-code'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm, SECRET_FIELDS } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { changePinSchema, resetPinForm } from '~/utils/pin-schemas'
import { safeRedirect } from '~/utils/redirect'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast, type Toast } from '~/utils/toast.server'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

type Mode = 'change' | 'reset'

// The e-mail code steps of "Forgot PIN?" load when they are asked for (the link starts it), not
// on a first visit to change the PIN.
const loadPinReset = () => import('~/components/pin-reset')
const ResetPin = lazy(loadPinReset)

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const info = loaded(await walletInfoFlow(request, context))
  if (!info.hasPin) throw redirect(redirectTo ? `/set-pin?${new URLSearchParams({ redirectTo })}` : '/set-pin')
  return {
    mode: (url.searchParams.get('mode') === 'reset' ? 'reset' : 'change') as Mode,
    pin: info.pin,
    timeZone: info.limits.timeZone,
    redirectTo,
    ...formConstraints({ 'change-pin': changePinSchema, 'reset-pin': resetPinForm }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  const intent = formData.get('intent')
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/wallet')

  if (intent === 'send-code') return sendCodeStep(request, context, formData, CodeType.RESET_PIN, { mode: 'reset' as Mode })
  if (intent === 'reset') {
    return verifyCodeStep(formData, {
      schema: resetPinForm,
      extra: { mode: 'reset' as Mode },
      run: (value) => resetPinFlow(request, context, { verifyCode: value.verifyCode, pin: value.pin }),
      done: () => redirectWithToast(request, leaveErrorAction(request, redirectTo), { type: 'success', message: successMessages.pinReset }),
    })
  }

  const submission = parseWithZod(formData, { schema: changePinSchema })
  const base = { mode: 'change' as Mode, refused: PIN_FIELDS }
  if (submission.status !== 'success') return formRefusal(submission, base)
  const result = await setPinFlow(request, context, { oldPin: submission.value.oldPin, pin: submission.value.pin })
  if (!result.success && result.code === Refusals.PIN_WRONG.code) {
    // Said once, beside the current PIN, which alone starts empty again: the new PIN typed twice was fine.
    const answer = submission.reply({ fieldErrors: { oldPin: [result.msg] }, hideFields: SECRET_FIELDS })
    return data({ ...base, refused: ['oldPin'], toast: null as Toast | null, result: answer }, { status: 400 })
  }
  if (!result.success) return formRefusal(submission, base, result)
  return redirectWithToast(request, leaveErrorAction(request, redirectTo), { type: 'success', message: successMessages.pinChanged })
}

export default function ChangePinScreen() {
  const { mode: loaderMode, redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const mode = actionData?.mode ?? loaderMode
  return (
    <Screen backTo={mode === 'reset' ? '/change-pin' : '/account'}>
      <ActionToast toast={actionData?.toast} />
      {mode === 'reset' ? (
        <Suspense fallback={null}>
          <ResetPin reply={actionData?.mode === 'reset' ? (actionData as CodeStepReply) : undefined} redirectTo={redirectTo} />
        </Suspense>
      ) : (
        <ChangePin reply={actionData?.mode === 'change' ? actionData : undefined} />
      )}
    </Screen>
  )
}

type ChangeReply = { result: Parameters<typeof useSchemaForm>[1]['lastResult']; refused?: string[] }

function ChangePin({ reply }: { reply?: ChangeReply }) {
  const { pin, timeZone, redirectTo } = useLoaderData<typeof loader>()
  const [form, fields] = useSchemaForm(() => import('~/utils/pin-schemas').then((m) => m.changePinSchema), {
    id: 'change-pin',
    lastResult: reply?.result,
  })
  const pending = usePendingIntent('change')
  const locked = pin.lockedUntil !== null
  const errorAction = useErrorAction(form.errorId)
  const resetHref = redirectTo ? `/change-pin?${new URLSearchParams({ mode: 'reset', redirectTo })}` : '/change-pin?mode=reset'
  return (
    <>
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Choose a new PIN</h2>
        <p className="cl-formhead__lead">Type your current PIN, then the new one twice.</p>
      </header>
      {locked ? (
        <div className="cl-callout cl-callout--warning" role="status">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p>{R.pinLocked(formatClock(pin.lockedUntil!, timeZone))}</p>
            <p>You can still set a new PIN with an e-mail code.</p>
          </div>
        </div>
      ) : pin.triesLeft < PIN_MAX_TRIES && !reply ? (
        <div className="cl-callout cl-callout--warning" role="status">
          <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{R.triesLeft(pin.triesLeft)}</p>
        </div>
      ) : null}
      <Form method="post" action={errorAction} className="cl-form cl-fill" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <fieldset disabled={locked}>
          <PinField field={fields.oldPin} reply={reply} label="Current PIN" />
          <p className="cl-form__aside">
            <Link to={resetHref} onClick={() => void loadPinReset()}>
              Forgot PIN?
            </Link>
          </p>
          <NewPinFields fields={fields} reply={reply} />
        </fieldset>
        <FormError errors={answerRefusals(form.errors, reply?.result?.error)} id={form.errorId} />
        <ActionBar>
          <Button type="submit" name="intent" value="change" variant="primary" block pending={pending} disabled={locked}>
            Change PIN
          </Button>
        </ActionBar>
      </Form>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
