// Add Bank Card (SPEC §2, login): the bank (from /v1/bank/list), the 10-digit NUBAN (its check
// digit checked as it is typed, with JavaScript), the account name and the PIN. No PIN yet: set
// one first and come back. Then on to the list, or back to where the person was (Withdraw).
// With a payout provider the name is the bank's, never typed: the account is resolved as the tenth
// digit is typed (a fetcher to this action, intent "resolve"), or on the first submit without
// JavaScript, and the person confirms "NAME — is this your account?" before the PIN saves it.
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useFetcher, useLoaderData } from '@remix-run/react'
import { useRef, useState, type ReactNode } from 'react'
import { z } from 'zod'
import { accountFitsBank, MAX_BANK_CARDS } from '#contract/bank-card-rules'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { BankPicker, BankSearchForm } from '~/components/bank-picker'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { answerRefusals, Field, FormError, leaveErrorAction, useErrorAction } from '~/components/forms'
import { PinField } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css?url'
import { addBankCardFlow, banksFlow, resolveBankCardFlow } from '~/upstream/bank-cards.server'
import { loaded } from '~/upstream/flow.server'
import { walletSummaryFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import { addSchema, providerSchema } from '~/utils/bank-card-schemas'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm, SECRET_FIELDS, type FormReply } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { walletMessages as W } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

/** The api's refusal of the account number ("accountNumber: …"), as that field's error. */
const numberRefused = (failure: { msg: string }) =>
  failure.msg.startsWith('accountNumber: ') ? failure.msg.slice('accountNumber: '.length) : undefined

/** The same form again, with `message` on the account number. */
function withNumberError<S extends z.ZodTypeAny>(formData: FormData, schema: S, message: string) {
  return parseWithZod(formData, {
    schema: schema.superRefine((_v, ctx) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: ['accountNumber'] })),
  })
}

/** What was searched for in the bank picker without JavaScript (`?bank=`). */
const bankQuery = (request: Request) => (new URL(request.url).searchParams.get('bank') ?? '').trim().slice(0, 60)

/** The account the bank named, for the confirm step: only shown while the form still holds it. */
type Resolved = { bankCode: string; accountNumber: string; accountName: string }
type ProviderReply = FormReply<{ refused: string[]; resolved: Resolved | null }>
const providerReply = (data: unknown) => (data && typeof data === 'object' && 'resolved' in data ? (data as ProviderReply) : undefined)

/** The refusals that are about the PIN: only they empty it again (with JavaScript). */
const PIN_REFUSALS: number[] = [Refusals.PIN_WRONG.code, Refusals.PIN_LOCKED.code, Refusals.PIN_BUSY.code]

/** This screen's own address, with the place to go back to afterwards. */
const selfHref = (redirectTo: string) =>
  redirectTo ? `/wallet/add-bank-card?${new URLSearchParams({ redirectTo })}` : '/wallet/add-bank-card'
const setPinHref = (redirectTo: string) => `/set-pin?${new URLSearchParams({ redirectTo: selfHref(redirectTo) })}`

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
  const [summaryResult, banksResult] = await Promise.all([walletSummaryFlow(request, context), banksFlow(request, context)])
  const info = loaded(summaryResult)
  if (!info.hasPin) throw await redirectWithToast(request, setPinHref(redirectTo), { type: 'info', message: R.pinFirst })
  if (info.bankCardCount >= MAX_BANK_CARDS) {
    throw await redirectWithToast(request, '/wallet/bank-cards', { type: 'info', message: R.bankCardLimit(MAX_BANK_CARDS) })
  }
  const banks = [...loaded(banksResult)].sort((a, b) => a.name.localeCompare(b.name))
  return {
    banks,
    redirectTo,
    resolvesNames: info.resolvesNames,
    query: bankQuery(request),
    ...formConstraints({ 'add-bank-card': info.resolvesNames ? providerSchema : addSchema }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  if (formData.has('intent')) return providerAction(request, context, formData)
  const back = safeRedirect(formData.get('redirectTo'), '')
  const submission = parseWithZod(formData, { schema: addSchema })
  if (submission.status !== 'success') return formRefusal(submission, { refused: submission.error?.pin ? ['pin'] : [] })
  const result = await addBankCardFlow(request, context, submission.value)
  if (!result.success) {
    if (result.code === Refusals.PIN_NOT_SET.code)
      return redirectWithToast(request, leaveErrorAction(request, setPinHref(back)), { type: 'info', message: R.pinFirst })
    const wrongNumber = numberRefused(result)
    if (wrongNumber) return formRefusal(withNumberError(formData, addSchema, wrongNumber), { refused: [] })
    const refused = result.code !== undefined && PIN_REFUSALS.includes(result.code) ? ['pin'] : []
    return formRefusal(submission, { refused }, result)
  }
  return redirectWithToast(request, leaveErrorAction(request, back || '/wallet/bank-cards'), {
    type: 'success',
    message: successMessages.bankCardAdded,
  })
}

/** The provider's steps: resolve (the bank's name to confirm), then add with the PIN (the api resolves again and saves that name). */
async function providerAction(request: Request, context: ActionFunctionArgs['context'], formData: FormData) {
  const back = safeRedirect(formData.get('redirectTo'), '')
  const submission = parseWithZod(formData, { schema: providerSchema })
  if (submission.status !== 'success') return formRefusal(submission, { refused: submission.error?.pin ? ['pin'] : [], resolved: null })
  const { intent, bankCode, accountNumber, pin } = submission.value
  const named = await resolveBankCardFlow(request, context, { bankCode, accountNumber })
  if (!named.success) {
    const wrongNumber = numberRefused(named)
    if (wrongNumber) return formRefusal(withNumberError(formData, providerSchema, wrongNumber), { refused: [], resolved: null })
    return formRefusal(submission, { refused: [], resolved: null }, named)
  }
  if (!named.data.accountName) return formRefusal(submission, { refused: [], resolved: null }, W.nameTyped)
  const resolved: Resolved = { bankCode, accountNumber, accountName: named.data.accountName }
  if (intent === 'resolve') return { result: submission.reply({ hideFields: SECRET_FIELDS }), toast: null, refused: [], resolved }
  const result = await addBankCardFlow(request, context, { bankCode, accountNumber, pin: pin! })
  if (!result.success) {
    if (result.code === Refusals.PIN_NOT_SET.code)
      return redirectWithToast(request, leaveErrorAction(request, setPinHref(back)), { type: 'info', message: R.pinFirst })
    const refused = result.code !== undefined && PIN_REFUSALS.includes(result.code) ? ['pin'] : []
    return formRefusal(submission, { refused, resolved }, result)
  }
  return redirectWithToast(request, leaveErrorAction(request, back || '/wallet/bank-cards'), {
    type: 'success',
    message: successMessages.bankCardAdded,
  })
}

export default function AddBankCardScreen() {
  const { resolvesNames } = useLoaderData<typeof loader>()
  return resolvesNames ? <ResolvedNameForm /> : <TypedNameForm />
}

type FieldMeta = Parameters<typeof getInputProps>[0]

type Typed = { bankCode: string; accountNumber: string }

/**
 * The frame both forms share: the heading, the form (it reports the bank and number as they are
 * typed), and the bank and account-number fields; `help` says what is known of the number.
 */
function AccountForm({
  lead,
  toast,
  formProps,
  onTyped,
  bankCode,
  accountNumber,
  numberErrors,
  help,
  children,
}: {
  lead: string
  toast: Parameters<typeof ActionToast>[0]['toast']
  formProps: ReturnType<typeof getFormProps>
  onTyped: (typed: Typed) => void
  bankCode: FieldMeta & { errors?: string[] }
  accountNumber: FieldMeta
  numberErrors: string[] | null | undefined
  help: string | undefined
  children: ReactNode
}) {
  const { banks, redirectTo, query } = useLoaderData<typeof loader>()
  const formRef = useRef<HTMLFormElement>(null)
  const errorAction = useErrorAction(`${formProps.id ?? 'add-bank-card'}-error`, selfHref(redirectTo))
  const read = (code?: string) => {
    const el = formRef.current?.elements
    const value = (name: string) => (el?.namedItem(name) as HTMLInputElement | null)?.value ?? ''
    onTyped({ bankCode: code ?? value('bankCode'), accountNumber: value('accountNumber') })
  }
  return (
    <Screen backTo={redirectTo || '/wallet/bank-cards'}>
      <ActionToast toast={toast} />
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Where should we pay you?</h2>
        <p className="cl-formhead__lead">{lead}</p>
      </header>
      <BankSearchForm action="/wallet/add-bank-card" redirectTo={redirectTo} />
      <Form ref={formRef} method="post" action={errorAction} className="cl-form cl-fill" {...formProps} onChange={() => read()}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <BankPicker
          banks={banks}
          query={query}
          inputProps={getInputProps(bankCode, { type: 'text' })}
          errors={bankCode.errors}
          onPick={(code) => read(code)}
        />
        <Field
          label="Account number"
          inputProps={{
            ...getInputProps(accountNumber, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'off',
            maxLength: 13,
            pattern: undefined,
            placeholder: '10 digits',
          }}
          errors={numberErrors ?? undefined}
          help={help ?? '10 digits; at a wallet, often your phone number.'}
        />
        {children}
      </Form>
    </Screen>
  )
}

/** Manual payouts: the name is typed, as the bank shows it. */
function TypedNameForm() {
  const { banks } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(() => import('~/utils/bank-card-schemas').then((m) => m.addSchema), {
    id: 'add-bank-card',
    lastResult: actionData?.result,
  })
  // The NUBAN check digit as it is typed: the bank and the number, read from the form.
  const [typed, setTyped] = useState({ bankCode: '', accountNumber: '' })
  const digits = typed.accountNumber.replace(/[\s-]/g, '')
  const bank = banks.find((b) => b.code === typed.bankCode)
  // Only a scheme the bank is known to use says yes or no here; otherwise the bank's name enquiry does.
  const checked = bank?.nuban && /^\d{10}$/.test(digits) ? accountFitsBank(bank, digits) : undefined
  const numberErrors = fields.accountNumber.errors ?? (checked === false ? [W.nubanWrong] : undefined)
  return (
    <AccountForm
      lead="A Nigerian bank account in your name. Only its last four digits are shown after this."
      toast={actionData?.toast}
      formProps={getFormProps(form)}
      onTyped={setTyped}
      bankCode={fields.bankCode}
      accountNumber={fields.accountNumber}
      numberErrors={numberErrors}
      help={checked ? W.nubanOk(bank!.name) : undefined}
    >
      <Field
        label="Account name"
        inputProps={{ ...getInputProps(fields.accountName, { type: 'text' }), autoComplete: 'name', autoCapitalize: 'words' }}
        errors={fields.accountName.errors}
        help="As your bank shows it."
      />
      <PinField field={fields.pin} reply={actionData} label="Your withdrawal PIN" />
      <FormError errors={answerRefusals(form.errors, actionData?.result?.error)} id={form.errorId} />
      <ActionBar>
        <Button type="submit" variant="primary" block pending={usePendingIntent()}>
          Add bank account
        </Button>
      </ActionBar>
    </AccountForm>
  )
}

/** A payout provider: the bank names the account as the tenth digit is typed; the person confirms it. */
function ResolvedNameForm() {
  const { banks, redirectTo } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const reply = providerReply(actionData)
  const [form, fields] = useSchemaForm(() => import('~/utils/bank-card-schemas').then((m) => m.providerSchema), {
    id: 'add-bank-card',
    lastResult: reply?.result,
  })
  const fetcher = useFetcher<typeof action>()
  const [typed, setTyped] = useState({ bankCode: reply?.resolved?.bankCode ?? '', accountNumber: reply?.resolved?.accountNumber ?? '' })
  const digits = typed.accountNumber.replace(/[\s-]/g, '')
  const bank = banks.find((b) => b.code === typed.bankCode)
  // Only a scheme the bank is known to use says yes or no here; otherwise the bank's name enquiry does.
  const checked = bank?.nuban && /^\d{10}$/.test(digits) ? accountFitsBank(bank, digits) : undefined
  const asked = providerReply(fetcher.data)
  // The latest answer, the fetcher's (JavaScript) or the page's (a submit); only while the form still holds that account.
  const latest = fetcher.state === 'idle' && asked && fetcher.formData === undefined ? asked : reply
  const named = [asked?.resolved, reply?.resolved].find((r) => r && r.bankCode === typed.bankCode && r.accountNumber === digits)
  const lookupError = !named && asked && !asked.resolved ? (asked.result.error?.[''] ?? asked.result.error?.accountNumber) : undefined
  const resolving = fetcher.state !== 'idle'
  const saving = usePendingIntent('add')
  const checking = usePendingIntent('resolve') || resolving
  const ask = (bankCode: string, accountNumber: string) => {
    const number = accountNumber.replace(/[\s-]/g, '')
    const b = banks.find((x) => x.code === bankCode)
    if (b && /^\d{10}$/.test(number) && accountFitsBank(b, number))
      fetcher.submit({ intent: 'resolve', bankCode, accountNumber: number, redirectTo }, { method: 'post' })
  }
  const numberErrors = fields.accountNumber.errors ?? (checked === false ? [W.nubanWrong] : lookupError)
  return (
    <AccountForm
      lead="A Nigerian bank account in your name. We ask your bank for the account’s name; you confirm it."
      toast={latest?.toast}
      formProps={getFormProps(form)}
      onTyped={(next) => {
        if (next.bankCode !== typed.bankCode || next.accountNumber !== typed.accountNumber) ask(next.bankCode, next.accountNumber)
        setTyped(next)
      }}
      bankCode={fields.bankCode}
      accountNumber={fields.accountNumber}
      numberErrors={numberErrors}
      help={resolving ? W.resolving : undefined}
    >
      <div aria-live="polite">
        {named ? (
          <p className="cl-resolved">
            <strong className="cl-resolved__name">{named.accountName}</strong> — is this your account?
          </p>
        ) : null}
      </div>
      {named ? <PinField field={fields.pin} reply={reply} label="Your withdrawal PIN, to save it" /> : null}
      <FormError errors={named || !lookupError ? answerRefusals(form.errors, reply?.result?.error) : undefined} id={form.errorId} />
      <ActionBar>
        {named ? (
          <Button type="submit" name="intent" value="add" variant="primary" block pending={saving}>
            Yes, save this account
          </Button>
        ) : (
          <Button type="submit" name="intent" value="resolve" variant="primary" block pending={checking}>
            Check the account
          </Button>
        )}
      </ActionBar>
    </AccountForm>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
