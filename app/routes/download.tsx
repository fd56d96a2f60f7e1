// Download app (SPEC §2, public). An honest page: the product is a web app today, so it explains how
// to put it on the home screen in Safari and Chrome, and says plainly that native apps are not out
// yet (no store badges that lead nowhere, and a warning about look-alike apps).
import type { LinksFunction } from '@remix-run/node'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { ActionBar, Screen } from '~/components/screen'
import downloadStyles from '~/styles/screens/download.css'
import { usePublicEnv } from '~/utils/user'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: downloadStyles }]

export default function Download() {
  const brand = usePublicEnv().brandName
  return (
    <Screen title="Download app" backTo="/">
      <div className="cl-page-hero">
        <span className="cl-icon-tile">
          <Icon name="smartphone" size={28} />
        </span>
        <h2 className="cl-title">{brand} works in your browser</h2>
        <p className="cl-lead">
          There is nothing to install. Add {brand} to your home screen and it opens full screen, like any other app, with the same account
          and wallet.
        </p>
      </div>

      <Card title="iPhone and iPad (Safari)">
        <ol className="cl-howto">
          <li>Open {brand} in Safari.</li>
          <li>
            Tap the Share button{' '}
            <span className="cl-kbd-icon">
              <Icon name="share" size={16} title="Share" />
            </span>{' '}
            in the toolbar.
          </li>
          <li>
            Scroll down and tap <strong>Add to Home Screen</strong>{' '}
            <span className="cl-kbd-icon">
              <Icon name="plus-square" size={16} />
            </span>
            .
          </li>
          <li>
            Tap <strong>Add</strong>. The {brand} icon appears on your home screen.
          </li>
        </ol>
      </Card>

      <Card title="Android (Chrome)">
        <ol className="cl-howto">
          <li>Open {brand} in Chrome.</li>
          <li>
            Tap the menu{' '}
            <span className="cl-kbd-icon">
              <Icon name="more-vertical" size={16} title="More" />
            </span>{' '}
            at the top right.
          </li>
          <li>
            Tap <strong>Add to Home screen</strong> (on some phones it says <strong>Install app</strong>).
          </li>
          <li>
            Tap <strong>Add</strong> or <strong>Install</strong> to confirm.
          </li>
        </ol>
      </Card>

      <Card>
        <div className="cl-stack cl-stack--sm">
          <div className="cl-inline cl-inline--between">
            <h2 className="cl-card__title">Apps for iPhone and Android</h2>
            <span className="cl-badge cl-badge--brand">Coming soon</span>
          </div>
          <p className="cl-muted">
            We are building native apps. They are not in the App Store or Google Play yet, so any app there that claims to be {brand} is not
            ours. When they are ready we will say so on this page and in your notifications.
          </p>
        </div>
      </Card>

      <ActionBar>
        <ButtonLink to="/" variant="primary" block>
          Continue in the browser
        </ButtonLink>
      </ActionBar>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
