// Download app (SPEC §2, public). An honest page: the product is a web app, so it explains how to put
// it on the home screen in Safari and Chrome, with a QR code (drawn on the server, app/utils/qr.server.ts)
// that opens the site on a phone. The store links appear only once the apps are out (APP_STORE_URL,
// PLAY_STORE_URL); until then it says plainly that they are not, and warns about look-alike apps.
// Where the browser offers to install the app (Chromium's beforeinstallprompt, caught from the first
// page on by utils/install-prompt.ts), an Install button; an iPhone, told from its User-Agent on the
// server so it works without JavaScript, gets Safari's steps first and no Android ones.
import { data, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { ActionBar, Screen } from '~/components/screen'
import downloadStyles from '~/styles/screens/download.css?url'
import { getWebEnv } from '~/utils/env.server'
import { useInstallPrompt } from '~/utils/install-prompt'
import { qrSvg, siteUrl } from '~/utils/qr.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(downloadStyles)
export const links = stylesheetLinks(handle)

/** An iPhone, iPad or iPod (an iPad that says it is a Mac cannot be told apart here). */
const isIos = (userAgent: string) => /\b(iPhone|iPad|iPod)\b/.test(userAgent)

export async function loader({ request }: LoaderFunctionArgs) {
  // Public: no guard. The QR code's address is the configured one only, never the request's Host.
  const env = getWebEnv()
  const url = siteUrl()
  return data(
    {
      qr: url ? { url, svg: await qrSvg(url) } : null,
      stores: {
        appStore: env.APP_STORE_URL ?? null,
        playStore: env.PLAY_STORE_URL ?? null,
      },
      ios: isIos(request.headers.get('User-Agent') ?? ''),
    },
    { headers: { Vary: 'User-Agent' } },
  )
}

// The page differs by device: a shared cache must not give an iPhone's page to an Android phone.
export const headers: HeadersFunction = ({ loaderHeaders }) => ({ Vary: loaderHeaders.get('Vary') ?? 'User-Agent' })

export default function Download() {
  const brand = usePublicEnv().brandName
  const { qr, stores, ios } = useLoaderData<typeof loader>()
  const hasStores = Boolean(stores.appStore || stores.playStore)
  return (
    <Screen backTo="/">
      <div className="cl-page-hero">
        <span className="cl-icon-tile">
          <Icon name="smartphone" size={28} />
        </span>
        <h2 className="cl-title">{brand} works in your browser</h2>
        <p className="cl-lead">
          No store needed: add {brand} to your home screen and it opens full screen, like any other app, with the same account and wallet,
          and tells you about your money even when it is closed.
        </p>
      </div>

      {hasStores ? (
        <Card title="Get the app">
          <div className="cl-stack cl-stack--sm">
            {stores.appStore ? (
              <a className="cl-button cl-button--secondary cl-button--block" href={stores.appStore} rel="noopener noreferrer">
                <span className="cl-button__content">
                  <Icon name="download" size={20} className="cl-button__icon" />
                  Download on the App Store
                </span>
              </a>
            ) : null}
            {stores.playStore ? (
              <a className="cl-button cl-button--secondary cl-button--block" href={stores.playStore} rel="noopener noreferrer">
                <span className="cl-button__content">
                  <Icon name="download" size={20} className="cl-button__icon" />
                  Get it on Google Play
                </span>
              </a>
            ) : null}
            <p className="cl-muted cl-small">Only these links lead to our apps. Any other app that claims to be {brand} is not ours.</p>
          </div>
        </Card>
      ) : null}

      {qr ? (
        <Card title="Open it on your phone">
          <div className="cl-qr">
            <div
              className="cl-qr__code"
              role="img"
              aria-label={`QR code: scan it with your phone's camera to open ${qr.url}`}
              // The SVG comes from the qrcode library, drawn from the configured address only.
              dangerouslySetInnerHTML={{ __html: qr.svg }}
            />
            <p className="cl-muted cl-small">
              Point your phone&apos;s camera at the code, then tap the link that appears: <span className="cl-qr__url">{qr.url}</span>
            </p>
          </div>
        </Card>
      ) : null}

      {ios ? null : <InstallCard brand={brand} />}
      {ios ? (
        <IphoneSteps brand={brand} />
      ) : (
        <>
          <AndroidSteps brand={brand} />
          <IphoneSteps brand={brand} />
        </>
      )}

      {hasStores ? null : (
        <Card>
          <div className="cl-stack cl-stack--sm">
            <div className="cl-inline cl-inline--between">
              <h2 className="cl-card__title">Apps for iPhone and Android</h2>
              <span className="cl-badge cl-badge--brand">Coming soon</span>
            </div>
            <p className="cl-muted">
              We are building native apps. They are not in the App Store or Google Play yet, so any app there that claims to be {brand} is
              not ours. When they are ready we will say so on this page and in your notifications.
            </p>
          </div>
        </Card>
      )}

      <ActionBar>
        <ButtonLink to="/" variant="primary" block>
          Continue in the browser
        </ButtonLink>
      </ActionBar>
    </Screen>
  )
}

/**
 * The browser's own install, offered only while it has an offer (Chromium); after it, says so.
 * Rendered on the server as nothing: without JavaScript there is no button that does nothing.
 */
function InstallCard({ brand }: { brand: string }) {
  const { state, install } = useInstallPrompt()
  if (state === 'unavailable') return null
  return (
    <Card title="Install the app">
      <div className="cl-stack cl-stack--sm" aria-live="polite">
        {state === 'installed' ? (
          <p>{brand} is installed. Open it from your home screen or app list.</p>
        ) : (
          <>
            <p className="cl-muted">Your browser can add {brand} to this device as an app, with its own icon.</p>
            <Button variant="primary" block icon="download" onClick={() => void install()}>
              Install {brand}
            </Button>
          </>
        )}
      </div>
    </Card>
  )
}

function IphoneSteps({ brand }: { brand: string }) {
  return (
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
  )
}

function AndroidSteps({ brand }: { brand: string }) {
  return (
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
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
