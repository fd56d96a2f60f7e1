// Withdrawal Detail (SPEC §2, login): where one withdrawal stands — its figures, the account, by
// when it is due, and its timeline to paid (with the bank's reference) or failed (with the reason,
// the full amount back in the wallet, and a link to send it to another account). Another person's
// or an unknown id is a 404. While the payout is on its way the receipt asks again by itself (with
// JavaScript), and stops once it is final.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { amountInputValue } from '#contract/money'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Money } from '~/components/money'
import { Screen } from '~/components/screen'
import { BankName, ExpectedBy, WithdrawalFacts, WithdrawalNotFound, WithdrawalStatus, WithdrawalTimeline } from '~/components/withdrawal'
import walletStyles from '~/styles/screens/wallet.css?url'
import { withdrawalPage } from '~/upstream/withdrawals.server'
import { useLiveData } from '~/utils/live-data'
import { walletMessages as W } from '~/utils/messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

/** A payout promised in minutes: the receipt asks this often while the person watches it. */
const REFRESH_MS = 5_000

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await withdrawalPage(request, context, params.id ?? '')
  const w = page.withdrawal
  // The money is back in the wallet: offer to send the same amount to another account.
  const anotherAccount =
    w.status === 'failed' || w.status === 'reversed'
      ? `/wallet/withdraw?${new URLSearchParams({ amount: amountInputValue(w.amount, w.currency), avoid: w.bankCard.id })}`
      : null
  return { ...page, anotherAccount }
}

export default function WithdrawDetailScreen() {
  const { withdrawal: w, timeZone, anotherAccount } = useLoaderData<typeof loader>()
  useLiveData(REFRESH_MS, { while: w.status === 'pending' || w.status === 'processing' })
  return (
    <Screen backTo="/wallet">
      <section className="cl-result" aria-labelledby="withdrawal-amount">
        <WithdrawalStatus status={w.status} />
        <h2 id="withdrawal-amount" className="cl-visually-hidden">
          Withdrawal of
        </h2>
        <Money amount={w.status === 'failed' ? w.amount : w.received} currency={w.currency} size="hero" />
        {w.status === 'success' ? (
          <p className="cl-result__text">
            Paid to <BankName card={w.bankCard} />.
          </p>
        ) : w.status === 'failed' ? (
          <p className="cl-result__text">{W.refunded}</p>
        ) : w.status === 'reversed' ? (
          <p className="cl-result__text">{w.reason ?? 'Your bank sent the money back; it is back in your wallet.'}</p>
        ) : w.queued ? (
          <p className="cl-result__text">
            Queued, sending shortly to <BankName card={w.bankCard} />.
          </p>
        ) : (
          <>
            <p className="cl-result__text">
              On its way to <BankName card={w.bankCard} />.
            </p>
            <p className="cl-result__when">
              In your bank by <ExpectedBy withdrawal={w} timeZone={timeZone} />
            </p>
          </>
        )}
      </section>
      {w.status === 'failed' ? (
        <div className="cl-callout cl-callout--error">
          <Icon name="x-circle" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p className="cl-callout__title">This withdrawal failed</p>
            <p>{w.reason ?? 'The bank did not accept the payout.'}</p>
          </div>
        </div>
      ) : null}
      {anotherAccount ? (
        <ButtonLink to={anotherAccount} variant="primary" block>
          Send it to another account
        </ButtonLink>
      ) : null}
      <Card title="Progress">
        <WithdrawalTimeline withdrawal={w} timeZone={timeZone} />
      </Card>
      <Card title="Details">
        <WithdrawalFacts withdrawal={w} timeZone={timeZone} />
      </Card>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <WithdrawalNotFound /> }} />
}
