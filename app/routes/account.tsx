import { type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import { Avatar } from '~/components/avatar'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { GoogleLinkRow } from '~/components/google-link-row'
import { Link } from '~/components/link'
import { ListRow } from '~/components/list-row'
import { Screen } from '~/components/screen'
import { RewardsSection } from '~/components/task-list'
import profileStyles from '~/styles/screens/profile.css?url'
import { accountTasks } from '~/upstream/tasks.server'
import { notificationMessages as N } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { useUser } from '~/utils/user'

// One stylesheet: profile.css bundles the task list's.
export const handle = stylesheetHandle(profileStyles)
export const links = stylesheetLinks(handle)

/**
 * The hub of everything that is the person's: profile, rewards, wallet, notifications, sign-in,
 * help, and leaving. The person, the wallet at a glance and the tasks all come with the root's
 * one /v1/user/index call (useUser, and the request memo for the tasks): one api call a page.
 * Without the wallet the rows still lead there; without the tasks the rewards row stays.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return { tasks: await accountTasks(request, context) }
}

export default function AccountScreen() {
  const user = useUser()
  const { tasks } = useLoaderData<typeof loader>()
  const wallet = user.wallet
  const claimable = tasks.filter((t) => t.status === 'claimable').length
  return (
    <Screen>
      <Card className="cl-profile">
        <Avatar src={user.headImg} name={user.userName} size={72} />
        <div className="cl-profile__text">
          <h2 className="cl-profile__name">{user.userName}</h2>
          <p className="cl-profile__email">{user.email}</p>
        </div>
        <Link to="/edit-profile" className="cl-link cl-link--touch" aria-label="Edit profile">
          Edit
        </Link>
      </Card>

      <RewardsSection tasks={tasks} id="account-rewards" />

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
            value={wallet ? (wallet.hasPin ? 'Set' : 'Not set') : undefined}
          />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-activity">
        <h2 id="account-activity" className="cl-section__title">
          Activity
        </h2>
        <Card flush>
          <ListRow
            to="/notification"
            icon="bell"
            label="Notifications"
            value={user.unreadCount > 0 ? N.unreadShort(user.unreadCount) : undefined}
          />
          <ListRow to="/history" icon="receipt" label="Orders" />
          <ListRow to="/tasks" icon="gift" label="Rewards" value={claimable > 0 ? `${claimable} to claim` : undefined} />
          <ListRow to="/account/notifications" icon="smartphone" label="Notification settings" description="Push and e-mail" />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-signin">
        <h2 id="account-signin" className="cl-section__title">
          Profile and sign-in
        </h2>
        <Card flush>
          <ListRow to="/edit-profile" icon="edit" label="Edit profile" value={user.userName} />
          <GoogleLinkRow googleEmail={user.googleEmail} />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-about">
        <h2 id="account-about" className="cl-section__title">
          Help and about
        </h2>
        <Card flush>
          <ListRow to="/support" icon="chat" label="Help & Support" />
          <ListRow to="/user/privacy" icon="shield" label="Privacy Policy" />
          <ListRow to="/download" icon="download" label="Download app" />
        </Card>
      </section>

      <Form method="post" action="/logout" reloadDocument className="cl-section">
        <Button type="submit" variant="secondary" block>
          Sign out
        </Button>
      </Form>

      <section className="cl-section" aria-label="Leave">
        <Card flush>
          <ListRow to="/delete-account" icon="trash" label="Delete account" tone="danger" />
        </Card>
      </section>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
