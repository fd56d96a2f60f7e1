// Withdrawal Submitted (SPEC §2, login): what was asked for, what arrives, where, and by when,
// with the way to its detail and back to the wallet. `?id=` is the withdrawal's id.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { Money } from '~/components/money'
import { ActionBar, Screen } from '~/components/screen'
import { BankName, ExpectedBy, WithdrawalFacts, WithdrawalNotFound } from '~/components/withdrawal'
import walletStyles from '~/styles/screens/wallet.css?url'
import { withdrawalPage } from '~/upstream/withdrawals.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await withdrawalPage(request, context, new URL(request.url).searchParams.get('id') ?? '')
}

export default function WithdrawSuccessScreen() {
  const { withdrawal: w, timeZone } = useLoaderData<typeof loader>()
  return (
    <Screen backTo="/wallet">
      <section className="cl-result cl-result--success" aria-labelledby="withdraw-success-title">
        <span className="cl-icon-tile" aria-hidden="true">
          <Icon name="check-circle" size={32} />
        </span>
        <h2 id="withdraw-success-title" className="cl-result__title">
          {w.status === 'success' ? 'Withdrawal paid' : w.status === 'failed' ? 'Withdrawal returned' : 'Withdrawal requested'}
        </h2>
        <Money amount={w.received} currency={w.currency} size="lg" />
        {/* This page may be opened again later: it says where the money is now, not where it was. */}
        {w.status === 'success' ? (
          <p className="cl-result__text">
            was paid to <BankName card={w.bankCard} />.
          </p>
        ) : w.status === 'failed' ? (
          <p className="cl-result__text">could not be paid to your bank; the amount is back in your wallet.</p>
        ) : (
          <>
            <p className="cl-result__text">
              is on its way to <BankName card={w.bankCard} />. It stays on hold in your wallet until it is paid.
            </p>
            <p className="cl-result__when">
              In your bank by <ExpectedBy withdrawal={w} timeZone={timeZone} />
            </p>
          </>
        )}
      </section>
      <Card>
        <WithdrawalFacts withdrawal={w} timeZone={timeZone} />
      </Card>
      <p className="cl-center">
        <Link to={`/wallet/withdraw/${encodeURIComponent(w.id)}`} className="cl-link cl-link--touch">
          Track this withdrawal
        </Link>
      </p>
      <ActionBar>
        <ButtonLink to="/wallet" variant="primary" block>
          Back to wallet
        </ButtonLink>
      </ActionBar>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <WithdrawalNotFound /> }} />
}
