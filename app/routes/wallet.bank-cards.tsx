// Bank Cards (SPEC §2, login): the accounts withdrawals go to — masked, one default — with
// "Make default" and "Remove" (the PIN, in a small form per account that works without
// JavaScript), and the way to add one (at most five; a PIN first).
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { MAX_BANK_CARDS } from '#contract/bank-card-rules'
import type { BankCard } from '#contract/bank-cards'
import { pinField } from '#contract/pin'
import { ActionToast } from '~/components/action-toast'
import { BankCardLine } from '~/components/bank-card'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { CodeField, FormError } from '~/components/forms'
import { Icon } from '~/components/icon'
import { PIN_FIELDS } from '~/components/pin-fields'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css?url'
import { bankCardsFlow, removeBankCardFlow, setDefaultBankCardFlow } from '~/upstream/bank-cards.server'
import { loaded } from '~/upstream/flow.server'
import { walletSummaryFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import { usePendingIntent, useSecretKey } from '~/utils/form-state'
import { formRefusal, readForm } from '~/utils/form.server'
import { walletMessages as W } from '~/utils/messages'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

const ADD_HREF = '/wallet/add-bank-card'
const cardId = z.string({ required_error: 'Choose the bank account' }).min(1).max(64)
const removeSchema = z.object({ id: cardId, pin: pinField })
const defaultSchema = z.object({ id: cardId })

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const [summary, cards] = await Promise.all([walletSummaryFlow(request, context), bankCardsFlow(request, context)])
  return { hasPin: loaded(summary).hasPin, cards: loaded(cards) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  const target = typeof formData.get('id') === 'string' ? String(formData.get('id')).slice(0, 64) : ''
  if (formData.get('intent') === 'default') {
    const submission = parseWithZod(formData, { schema: defaultSchema })
    if (submission.status !== 'success') return formRefusal(submission, { cardId: target, intent: 'default' })
    const result = await setDefaultBankCardFlow(request, context, submission.value)
    if (!result.success) return formRefusal(submission, { cardId: target, intent: 'default' }, result)
    return redirectWithToast(request, '/wallet/bank-cards', { type: 'success', message: successMessages.defaultCardSet })
  }
  const submission = parseWithZod(formData, { schema: removeSchema })
  const extra = { cardId: target, intent: 'remove', refused: PIN_FIELDS }
  if (submission.status !== 'success') return formRefusal(submission, extra)
  const result = await removeBankCardFlow(request, context, submission.value)
  if (!result.success) return formRefusal(submission, extra, result)
  return redirectWithToast(request, '/wallet/bank-cards', { type: 'success', message: successMessages.bankCardRemoved })
}

export default function BankCardsScreen() {
  const { cards, hasPin } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const full = cards.length >= MAX_BANK_CARDS
  return (
    <Screen backTo="/wallet">
      <ActionToast toast={actionData?.toast} />
      {!hasPin ? (
        <div className="cl-callout cl-callout--warning">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p className="cl-callout__title">{W.pinMissingTitle}</p>
            <p>{W.pinMissingText}</p>
          </div>
        </div>
      ) : null}

      {cards.length > 0 ? (
        <ul className="cl-bankcards" aria-label="Your bank accounts">
          {cards.map((card) => (
            <li key={card.id}>
              <BankCardItem card={card} reply={actionData?.cardId === card.id ? actionData : undefined} />
            </li>
          ))}
        </ul>
      ) : (
        <Card className="cl-empty cl-empty--compact">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="bank" size={28} />
          </span>
          <h2 className="cl-empty__title">{W.noBankCard}</h2>
          <p className="cl-empty__text">{W.noBankCardText}</p>
        </Card>
      )}

      <ActionBar>
        {!hasPin ? (
          <ButtonLink to={`/set-pin?${new URLSearchParams({ redirectTo: ADD_HREF })}`} variant="primary" icon="lock" block>
            Set PIN
          </ButtonLink>
        ) : full ? (
          <>
            <p className="cl-muted cl-small cl-center">{R.bankCardLimit(MAX_BANK_CARDS)}</p>
            <Button type="button" variant="primary" icon="plus" block disabled>
              Add bank account
            </Button>
          </>
        ) : (
          <ButtonLink to={ADD_HREF} variant="primary" icon="plus" block>
            Add bank account
          </ButtonLink>
        )}
      </ActionBar>
    </Screen>
  )
}

type CardReply = { cardId: string; intent: string; refused?: string[]; result: { error?: Record<string, string[] | null> | null } }

/** One account: its line, "Make default" and "Remove" (with the PIN) as forms of their own. */
function BankCardItem({ card, reply }: { card: BankCard; reply?: CardReply }) {
  // One action serves every account's forms: only the form that was sent shows it is busy.
  const navigation = useNavigation()
  const submitting = usePendingIntent()
  const busy = (intent: string) => submitting && navigation.formData?.get('id') === card.id && navigation.formData.get('intent') === intent
  const removing = busy('remove')
  const defaulting = busy('default')
  const pinKey = useSecretKey(undefined, reply?.intent === 'remove' ? reply : undefined, 'pin')
  const errors = reply?.result.error ?? {}
  const pinId = `remove-pin-${card.id}`
  return (
    <Card className="cl-bankcard">
      <BankCardLine card={card} />
      {reply?.intent === 'default' ? <FormError errors={errors['']} id={`default-error-${card.id}`} /> : null}
      <div className="cl-bankcard__actions">
        {card.isDefault ? null : (
          <Form method="post">
            <input type="hidden" name="id" value={card.id} />
            <Button
              type="submit"
              name="intent"
              value="default"
              variant="secondary"
              pending={defaulting}
              aria-label={`Make ${card.bankName} ${card.maskedNumber} the default`}
            >
              Make default
            </Button>
          </Form>
        )}
        <details className="cl-disclosure" open={reply?.intent === 'remove' || undefined}>
          <summary>
            <Icon name="chevron-right" size={18} />
            Remove
            <span className="cl-visually-hidden">
              {' '}
              {card.bankName} {card.maskedNumber}
            </span>
          </summary>
          <Form method="post" className="cl-form cl-disclosure__body" aria-label={`Remove ${card.bankName} ${card.maskedNumber}`}>
            <input type="hidden" name="id" value={card.id} />
            <CodeField
              secret
              label="Your PIN, to remove this account"
              id={pinId}
              inputProps={{ name: 'pin', required: true, key: pinKey }}
              errors={reply?.intent === 'remove' ? errors.pin : undefined}
            />
            {reply?.intent === 'remove' ? <FormError errors={errors['']} id={`remove-error-${card.id}`} /> : null}
            <Button type="submit" name="intent" value="remove" variant="danger" block pending={removing}>
              Remove account
            </Button>
          </Form>
        </details>
      </div>
    </Card>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
