// Add Bank Card (SPEC §2, login): the bank (from /v1/bank/list), the 10-digit NUBAN (its check
// digit checked as it is typed, with JavaScript), the account name and the PIN. No PIN yet: set
// one first and come back. Then on to the list, or back to where the person was (Withdraw).
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { z } from 'zod'
import { accountNameField, accountNumberField, bankCodeField, isValidNuban, MAX_BANK_CARDS } from '#contract/bank-cards'
import { pinField } from '#contract/pin'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, SelectField } from '~/components/forms'
import { PinField } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css'
import { addBankCardFlow, banksFlow } from '~/upstream/bank-cards.server'
import { loaded } from '~/upstream/flow.server'
import { walletInfoFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import { formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'
import { successMessages, walletMessages as W } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { redirectWithToast } from '~/utils/toast.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: walletStyles }]

const addSchema = z
  .object({ bankCode: bankCodeField, accountNumber: accountNumberField, accountName: accountNameField, pin: pinField })
  .refine((b) => isValidNuban(b.bankCode, b.accountNumber), { message: W.nubanWrong, path: ['accountNumber'] })

/** The refusals that are about the PIN: only they empty it again (with JavaScript). */
const PIN_REFUSALS: number[] = [Refusals.PIN_WRONG.code, Refusals.PIN_LOCKED.code, Refusals.PIN_BUSY.code]

/** This screen's own address, with the place to go back to afterwards. */
const selfHref = (redirectTo: string) =>
  redirectTo ? `/wallet/add-bank-card?${new URLSearchParams({ redirectTo })}` : '/wallet/add-bank-card'
const setPinHref = (redirectTo: string) => `/set-pin?${new URLSearchParams({ redirectTo: selfHref(redirectTo) })}`

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  const [infoResult, banksResult] = await Promise.all([walletInfoFlow(request, context), banksFlow(request, context)])
  const info = loaded(infoResult)
  if (!info.hasPin) throw await redirectWithToast(request, setPinHref(redirectTo), { type: 'info', message: W.pinFirst })
  if (info.bankCardCount >= MAX_BANK_CARDS) {
    throw await redirectWithToast(request, '/wallet/bank-cards', { type: 'info', message: W.bankCardLimit(MAX_BANK_CARDS) })
  }
  const banks = [...loaded(banksResult)].sort((a, b) => a.name.localeCompare(b.name))
  return json({ banks, redirectTo })
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(request)
  const back = safeRedirect(formData.get('redirectTo'), '')
  const submission = parseWithZod(formData, { schema: addSchema })
  if (submission.status !== 'success') return formRefusal(submission, { refused: submission.error?.pin ? ['pin'] : [] })
  const result = await addBankCardFlow(request, context, submission.value)
  if (!result.success) {
    if (result.code === Refusals.PIN_NOT_SET.code)
      return redirectWithToast(request, setPinHref(back), { type: 'info', message: W.pinFirst })
    const refused = result.code !== undefined && PIN_REFUSALS.includes(result.code) ? ['pin'] : []
    return formRefusal(submission, { refused }, result)
  }
  return redirectWithToast(request, back || '/wallet/bank-cards', { type: 'success', message: successMessages.bankCardAdded })
}

export default function AddBankCardScreen() {
  const { banks, redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(addSchema, { id: 'add-bank-card', lastResult: actionData?.result })
  // The NUBAN check digit as it is typed: the bank and the number, read from the form.
  const [typed, setTyped] = useState({ bankCode: '', accountNumber: '' })
  const digits = typed.accountNumber.replace(/[\s-]/g, '')
  const bank = banks.find((b) => b.code === typed.bankCode)
  const checked = bank && /^\d{10}$/.test(digits) ? isValidNuban(bank.code, digits) : undefined
  const numberErrors = fields.accountNumber.errors ?? (checked === false ? [W.nubanWrong] : undefined)
  return (
    <Screen backTo={redirectTo || '/wallet/bank-cards'}>
      <ActionToast toast={actionData?.toast} />
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Where should we pay you?</h2>
        <p className="cl-formhead__lead">A Nigerian bank account in your name. Only its last four digits are shown after this.</p>
      </header>
      <Form
        method="post"
        className="cl-form cl-fill"
        {...getFormProps(form)}
        onChange={(event) => {
          const el = event.currentTarget.elements
          const value = (name: string) => (el.namedItem(name) as HTMLInputElement | null)?.value ?? ''
          setTyped({ bankCode: value('bankCode'), accountNumber: value('accountNumber') })
        }}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <SelectField
          label="Bank"
          inputProps={getInputProps(fields.bankCode, { type: 'text' })}
          errors={fields.bankCode.errors}
          placeholder="Choose your bank"
          options={banks.map((b) => ({ value: b.code, label: b.name }))}
        />
        <Field
          label="Account number"
          inputProps={{
            ...getInputProps(fields.accountNumber, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'off',
            maxLength: 13,
            pattern: undefined,
            placeholder: '10 digits',
          }}
          errors={numberErrors}
          help={checked ? W.nubanOk(bank!.name) : 'The 10-digit NUBAN of your account.'}
        />
        <Field
          label="Account name"
          inputProps={{ ...getInputProps(fields.accountName, { type: 'text' }), autoComplete: 'name', autoCapitalize: 'words' }}
          errors={fields.accountName.errors}
          help="As your bank shows it."
        />
        <PinField field={fields.pin} reply={actionData} label="Your withdrawal PIN" />
        <FormError errors={form.errors} id={form.errorId} />
        <ActionBar>
          <Button type="submit" variant="primary" block pending={usePendingIntent()}>
            Add bank account
          </Button>
        </ActionBar>
      </Form>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
