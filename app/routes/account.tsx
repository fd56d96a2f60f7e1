import { json, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import { Avatar } from '~/components/avatar'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ListRow } from '~/components/list-row'
import { Screen } from '~/components/screen'
import profileStyles from '~/styles/screens/profile.css'
import { requireToken } from '~/utils/auth.server'
import type { ScreenHandle } from '~/utils/routes'
import { useUser } from '~/utils/user'

export const handle: ScreenHandle = { tabs: true }

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: profileStyles }]

/**
 * The person and the wallet at a glance both come from the root's one /v1/user/index call
 * (useUser): the page costs one api call. The wallet rows say the balance, the accounts and
 * whether a PIN is set; without the wallet the rows still lead there.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireToken(request)
  return json(null)
}

export default function AccountScreen() {
  const user = useUser()
  const wallet = user.wallet
  return (
    <Screen title="Account">
      <Card className="cl-profile">
        <Avatar src={user.headImg} name={user.userName} size={72} />
        <div className="cl-profile__text">
          <h2 className="cl-profile__name">{user.userName}</h2>
          <p className="cl-profile__email">{user.email}</p>
        </div>
      </Card>

      <section className="cl-section" aria-labelledby="account-profile">
        <h2 id="account-profile" className="cl-section__title">
          Profile
        </h2>
        <Card flush>
          <ListRow to="/edit-profile" icon="edit" label="Edit profile" value={user.userName} />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-wallet">
        <h2 id="account-wallet" className="cl-section__title">
          Wallet
        </h2>
        <Card flush>
          <ListRow to="/wallet" icon="wallet" label="Wallet" value={wallet ? formatMoney(wallet.balance, wallet.currency) : undefined} />
          <ListRow
            to="/wallet/bank-cards"
            icon="bank"
            label="Bank cards"
            value={wallet ? (wallet.bankCardCount === 1 ? '1 account' : `${wallet.bankCardCount} accounts`) : undefined}
          />
          <ListRow
            to={wallet && !wallet.hasPin ? '/set-pin?redirectTo=%2Faccount' : '/change-pin?redirectTo=%2Faccount'}
            icon="lock"
            label="Withdrawal PIN"
            value={wallet ? (wallet.hasPin ? 'Change' : 'Set') : undefined}
          />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-about">
        <h2 id="account-about" className="cl-section__title">
          About
        </h2>
        <Card flush>
          <ListRow to="/user/privacy" icon="shield" label="Privacy Policy" />
          <ListRow to="/download" icon="download" label="Download app" />
        </Card>
      </section>

      <Form method="post" action="/logout" reloadDocument className="cl-section">
        <Button type="submit" variant="secondary" block>
          Sign out
        </Button>
      </Form>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
