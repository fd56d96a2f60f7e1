// Withdraw (SPEC §2, login): the account to pay to, the amount, and before the PIN everything a
// person wants to know — the fee, what arrives, the minimum, today's maximum and what is left of
// it, by when it will be in the bank, and how fast payouts really were last week (when enough
// were paid to say). The request id comes from the loader as a hidden field,
// so a double submit makes one withdrawal with and without JavaScript.
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import type { BankCard } from '#contract/bank-cards'
import { amountInputValue, formatMoney } from '#contract/money'
import { Refusals } from '#contract/refusals'
import type { PayoutSpeed, WalletInfo } from '#contract/wallet'
import { newRequestId } from '#contract/withdrawals'
import { ActionToast } from '~/components/action-toast'
import { BankCardLine } from '~/components/bank-card'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError, leaveErrorAction, radioProps, useErrorAction } from '~/components/forms'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { InfoList, InfoRow } from '~/components/list-row'
import { formatClock, formatWhen, Money, zoneName } from '~/components/money'
import { PinField } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import { useHydrated } from '~/components/ui'
import walletStyles from '~/styles/screens/wallet.css?url'
import { loaded } from '~/upstream/flow.server'
import { walletInfoFlow, withdrawFormFlow } from '~/upstream/wallet.server'
import { createWithdrawalFlow } from '~/upstream/withdrawals.server'
import { requireToken } from '~/utils/auth.server'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, readForm, SECRET_FIELDS } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { walletMessages as W } from '~/utils/messages'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast, type Toast } from '~/utils/toast.server'
import { limitProblem, readAmount } from '~/utils/withdraw-amount'
import { checkSchema, withdrawFields, withdrawSchema } from '~/utils/withdraw-schemas'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

const HOUR = 3_600_000
const MINUTE = 60_000
const HERE = '/wallet/withdraw'

/**
 * `?amount=…&avoid=<bank card id>`: a failed payout's receipt sends the person here to send that
 * amount to another account. An amount that does not read as one is ignored, never an error.
 */
function presetOf(url: URL, currency: string): { amount: string | null; avoid: string | null } {
  const text = (url.searchParams.get('amount') ?? '').slice(0, 40)
  const minor = text ? readAmount(text, currency) : undefined
  const avoid = url.searchParams.get('avoid')
  return {
    amount: minor !== undefined && minor > 0 ? amountInputValue(minor, currency) : null,
    avoid: avoid && /^[\w-]{1,64}$/.test(avoid) ? avoid : null,
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const { info, bankCards, payoutSpeed } = loaded(await withdrawFormFlow(request, context))
  return {
    info,
    cards: bankCards,
    speed: speedLine(payoutSpeed),
    promises: payoutPromises(info),
    notice: pinNotice(info),
    preset: presetOf(new URL(request.url), info.currency),
    requestId: newRequestId(),
    now: Date.now(),
    // The browser's form checks the limits too (before the PIN) with the schema it loads; the
    // limits give no native constraint, so the constraints are the currency's.
    ...formConstraints({ withdraw: withdrawFields(info.currency) }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  // The currency says how a typed amount reads ("1500.5" is 150050 kobo).
  const info = loaded(await walletInfoFlow(request, context))
  const { currency } = info

  if (formData.get('intent') === 'check') {
    const submission = parseWithZod(formData, { schema: checkSchema(currency, info) })
    if (submission.status !== 'success') return formRefusal(submission, { checked: null as number | null, refused: [] as string[] })
    return {
      result: submission.reply({ hideFields: SECRET_FIELDS }),
      toast: null as Toast | null,
      checked: submission.value.amount as number | null,
      refused: [] as string[],
    }
  }

  const submission = parseWithZod(formData, { schema: withdrawSchema(currency) })
  const typed = typeof formData.get('amount') === 'string' ? (readAmount(String(formData.get('amount')), currency) ?? null) : null
  if (submission.status !== 'success') return formRefusal(submission, { checked: typed, refused: ['pin'] })
  const result = await createWithdrawalFlow(request, context, submission.value)
  if (!result.success) {
    if (result.code === Refusals.PIN_NOT_SET.code) {
      return redirectWithToast(request, leaveErrorAction(request, `/set-pin?${new URLSearchParams({ redirectTo: HERE })}`), {
        type: 'info',
        message: R.pinFirst,
      })
    }
    return formRefusal(submission, { checked: typed, refused: ['pin'] }, result)
  }
  return redirectWithToast(request, leaveErrorAction(request, `/wallet/withdraw-success?id=${encodeURIComponent(result.data.id)}`), {
    type: 'success',
    message: successMessages.withdrawn,
  })
}

export default function WithdrawScreen() {
  const { info, cards } = useLoaderData<typeof loader>()
  const setPin = `/set-pin?${new URLSearchParams({ redirectTo: HERE })}`
  const addCard = `/wallet/add-bank-card?${new URLSearchParams({ redirectTo: HERE })}`
  return (
    <Screen backTo="/wallet">
      <ActionToast toast={useActionData<typeof action>()?.toast} />
      <p className="cl-withdraw-available">
        <span>{W.available}</span>
        <Money amount={info.balance} currency={info.currency} size="lg" />
      </p>
      {!info.hasPin ? (
        <Prompt title={W.pinMissingTitle} text={W.pinMissingText} to={setPin} action="Set PIN" icon="lock" />
      ) : cards.length === 0 ? (
        <Prompt title={W.noBankCard} text={W.noBankCardText} to={addCard} action="Add bank account" icon="bank" />
      ) : (
        <WithdrawForm cards={cards} />
      )}
    </Screen>
  )
}

function Prompt({ title, text, to, action, icon }: { title: string; text: string; to: string; action: string; icon: 'lock' | 'bank' }) {
  return (
    <>
      <Card className="cl-empty cl-empty--compact">
        <span className="cl-icon-tile" aria-hidden="true">
          <Icon name={icon} size={28} />
        </span>
        <h2 className="cl-empty__title">{title}</h2>
        <p className="cl-empty__text">{text}</p>
      </Card>
      <ActionBar>
        <ButtonLink to={to} variant="primary" block>
          {action}
        </ButtonLink>
      </ActionBar>
    </>
  )
}

/**
 * When the money arrives, on either side of the approval line (the loader says both, the screen
 * shows the one for the amount typed): automatic payouts up to the line in minutes, anything else
 * (manual payouts, or above the line: a person approves first) within the promised hours.
 */
function payoutPromises({ payouts, limits, currency }: WalletInfo) {
  const hours = { promiseMs: limits.payoutHours * HOUR, promise: null as string | null }
  if (payouts.mode === 'manual') return { upTo: null, within: hours, above: hours }
  return {
    upTo: payouts.autoPayoutMax,
    within: { promiseMs: payouts.automaticMinutes * MINUTE, promise: W.payoutMinutes(payouts.automaticMinutes) },
    above: { ...hours, promise: W.payoutApproval(formatMoney(payouts.autoPayoutMax, currency)) },
  }
}

/** "18 minutes", "1 minute", "about 5 hours". */
function duration(minutes: number) {
  if (minutes < 120) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
  return `about ${Math.round(minutes / 60)} hours`
}

/**
 * Last week's payouts, request to paid: the median, and the 90th percentile when it says more.
 * Said by the loader, as the PIN's notice below: the screen's script carries neither sentence.
 */
function speedLine(speed: PayoutSpeed | null) {
  if (!speed || speed.medianMinutes === null || speed.p90Minutes === null) return null
  const p90 = speed.p90Minutes > speed.medianMinutes ? `; 9 in 10 within ${duration(speed.p90Minutes)}` : ''
  return `Most payouts last week reached the bank in ${duration(speed.medianMinutes)}${p90}.`
}

/** Why the PIN cannot be used now, or how few tries are left: the form is disabled for the first two. */
function pinNotice({ pin, limits }: WalletInfo): { icon: 'lock' | 'clock' | 'alert-triangle'; text: string } | null {
  if (pin.lockedUntil !== null) return { icon: 'lock', text: R.pinLocked(formatClock(pin.lockedUntil, limits.timeZone)) }
  if (pin.withdrawBlockedUntil !== null)
    return { icon: 'clock', text: R.resetBlocked(formatWhen(pin.withdrawBlockedUntil, limits.timeZone)) }
  return pin.triesLeft < 5 ? { icon: 'alert-triangle', text: R.triesLeft(pin.triesLeft) } : null
}

function WithdrawForm({ cards }: { cards: BankCard[] }) {
  const { info, requestId, now, speed, notice, promises, preset } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const hydrated = useHydrated()
  const { currency, limits, pin } = info
  const others = preset.avoid ? cards.filter((c) => c.id !== preset.avoid) : cards
  const preferred = others.find((c) => c.isDefault) ?? others[0] ?? cards[0]
  const [form, fields] = useSchemaForm(() => import('~/utils/withdraw-schemas').then((m) => m.withdrawSchema(currency, info)), {
    id: 'withdraw',
    lastResult: actionData?.result,
    defaultValue: { bankCardId: preferred.id, ...(preset.amount && { amount: preset.amount }) },
  })
  // With JavaScript the summary follows the typed amount; without, the server's last reading of it.
  const [typed, setTyped] = useState<string | null>(null)
  const live = typed === null ? null : (readAmount(typed, currency) ?? null)
  const presetMinor = preset.amount === null ? null : (readAmount(preset.amount, currency) ?? null)
  const amount = typed === null ? (actionData?.checked ?? presetMinor) : live
  // Said while typing, before the PIN: below the minimum, over today's maximum or the balance.
  const problem = amount !== null && amount > 0 ? limitProblem(amount, info) : undefined
  const pending = usePendingIntent('withdraw')
  const checking = usePendingIntent('check')
  const locked = pin.lockedUntil !== null
  const blocked = pin.withdrawBlockedUntil !== null
  const most = Math.min(info.balance, limits.remainingToday)
  const symbol = formatMoney(0, currency).replace(/[\d.,\s]/g, '')
  const amountProps = getInputProps(fields.amount, { type: 'text' })
  const { promiseMs, promise } = promises.upTo !== null && (amount === null || amount <= promises.upTo) ? promises.within : promises.above
  const errorAction = useErrorAction(form.errorId)

  return (
    <Form method="post" action={errorAction} className="cl-form cl-fill" {...getFormProps(form)}>
      <input type="hidden" name="requestId" value={requestId} />
      {notice ? <Notice icon={notice.icon}>{notice.text}</Notice> : null}

      <fieldset disabled={locked || blocked}>
        <fieldset className="cl-choices">
          <legend>Pay to</legend>
          {cards.map((card) => (
            <label key={card.id} className="cl-choice">
              <input {...radioProps(getInputProps(fields.bankCardId, { type: 'radio', value: card.id }))} key={card.id} />
              <BankCardLine card={card} inLabel />
            </label>
          ))}
        </fieldset>
        <p className="cl-form__aside cl-withdraw-manage">
          <Link to="/wallet/bank-cards">Manage bank accounts</Link>
        </p>

        <Field
          className="cl-amount-field"
          label={`Amount (${currency})`}
          prefix={symbol}
          inputProps={{
            ...amountProps,
            inputMode: 'decimal',
            autoComplete: 'off',
            placeholder: '0.00',
            onChange: (event) => setTyped(event.currentTarget.value),
          }}
          errors={problem && typed !== null ? [problem] : fields.amount.errors}
          help="The fee is taken from this amount."
        />
        {most >= limits.min && !locked && !blocked ? (
          <div className="cl-amount-row">
            <span>
              Up to <Money amount={most} currency={currency} /> now
            </span>
            {hydrated ? (
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  const value = amountInputValue(most, currency)
                  form.update({ name: fields.amount.name, value })
                  setTyped(value)
                }}
              >
                Use all
              </Button>
            ) : null}
          </div>
        ) : null}

        <Card className="cl-summary" title="Before you confirm">
          <InfoList>
            <InfoRow label="Fee" value={<Money amount={limits.fee} currency={currency} />} />
            <InfoRow
              className="cl-summary__receive"
              label="You receive"
              value={
                <span aria-live="polite">
                  {amount !== null && amount > limits.fee && !problem ? <Money amount={amount - limits.fee} currency={currency} /> : '—'}
                </span>
              }
            />
            <InfoRow label="Minimum" value={<Money amount={limits.min} currency={currency} />} />
            <InfoRow label="Daily maximum" value={<Money amount={limits.dailyMax} currency={currency} />} />
            <InfoRow label="Left today" value={<Money amount={limits.remainingToday} currency={currency} />} />
            <InfoRow
              className="cl-summary__when"
              label="In your bank by"
              value={
                <span aria-live="polite">
                  <time dateTime={new Date(now + promiseMs).toISOString()}>{formatWhen(now + promiseMs, limits.timeZone)}</time>
                  <span className="cl-zone">{zoneName(limits.timeZone)}</span>
                </span>
              }
            />
          </InfoList>
          {promise ? (
            <p className="cl-promise" aria-live="polite">
              {promise}
            </p>
          ) : null}
          {speed ? <p className="cl-promise">{speed}</p> : null}
        </Card>
        {hydrated ? null : (
          <Button type="submit" name="intent" value="check" variant="secondary" block formNoValidate pending={checking}>
            Check what I receive
          </Button>
        )}

        <PinField field={fields.pin} reply={actionData} label="Your withdrawal PIN" />
      </fieldset>
      <FormError errors={form.errors} id={form.errorId} />
      <ActionBar>
        <Button
          type="submit"
          name="intent"
          value="withdraw"
          variant="primary"
          size="lg"
          block
          pending={pending}
          disabled={locked || blocked}
        >
          Withdraw
        </Button>
      </ActionBar>
    </Form>
  )
}

function Notice({ icon, children }: { icon: 'lock' | 'clock' | 'alert-triangle'; children: string }) {
  return (
    <div className="cl-callout cl-callout--warning" role="status">
      <Icon name={icon} size={20} className="cl-callout__icon" />
      <p className="cl-callout__body">{children}</p>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
