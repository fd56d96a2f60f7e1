import {
  json,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { ButtonLink } from './components/button'
import { ChatButton } from './components/chat-button'
import { Screen } from './components/screen'
import { TabBar } from './components/tab-bar'
import { Toaster } from './components/toaster'
import appStyles from './styles/app.css'
import tokenStyles from './styles/tokens.css'
import { loadSessionUser } from './utils/auth.server'
import { getPublicEnv } from './utils/env.server'
import { useNonce } from './utils/nonce'
import { pageTitle, screenFor } from './utils/routes'
import { commitSession, getSession } from './utils/session.server'
import { useDoubleTapGuard, useScrollToTopOnNavigation, useViewportHeight } from './utils/shell'
import { TOAST_DURATION_MS } from './utils/toast.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: tokenStyles },
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/site.webmanifest' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  let session = await getSession(request)
  const loaded = await loadSessionUser(request, session)
  session = loaded.session
  // Reading a flash unsets it; one commit carries both changes.
  const flashed = session.get('toast')
  const toast = flashed ? { ...flashed, durationMs: TOAST_DURATION_MS[flashed.type] ?? 3000 } : null
  const headers = new Headers()
  if (loaded.dirty || flashed) headers.append('Set-Cookie', await commitSession(session))
  return json({ user: loaded.user, toast, env: getPublicEnv() }, { headers })
}

export type RootLoaderData = ReturnType<typeof useLoaderData<typeof loader>>

export const meta: MetaFunction<typeof loader> = ({ data, location, error }) => {
  const brand = data?.env.brandName ?? 'Cardlane'
  const screen = screenFor(location.pathname)
  const title = error ? errorTitle(error) : (screen?.title ?? 'Page not found')
  return [
    { title: pageTitle(title, brand) },
    { name: 'description', content: `${brand}: sell gift cards at the rate you were quoted, keep a wallet, withdraw to your bank.` },
    { name: 'theme-color', content: '#0f766e' },
  ]
}

function errorTitle(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 404 ? 'Page not found' : 'Something went wrong'
}

/** The bottom tab bar shows on the top-level screens; deeper screens have a back button. */
const TAB_ITEMS = [
  { to: '/', label: 'Home', icon: 'home', end: true },
  { to: '/account', label: 'Account', icon: 'user' },
] as const
const TAB_PATHS = new Set(['/', '/account'])

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const data = useRouteLoaderData<typeof loader>('root')
  const location = useLocation()
  useViewportHeight()
  useDoubleTapGuard()
  useScrollToTopOnNavigation()
  const showTabs = TAB_PATHS.has(location.pathname)
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body className={showTabs ? 'cl-has-tabs' : undefined}>
        <Toaster toast={data?.toast ?? null} />
        {children}
        {showTabs ? <TabBar items={TAB_ITEMS.map((i) => ({ ...i }))} /> : null}
        <ChatButton widgetUrl={data?.env.chatWidgetUrl ?? undefined} supportEmail={data?.env.supportEmail ?? 'support@cardlane.local'} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  return <Document>{children}</Document>
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <Screen title={notFound ? 'Page not found' : 'Something went wrong'} backTo="/">
      <div className="cl-empty">
        <h2 className="cl-empty__title">{notFound ? 'We could not find that page' : 'Something went wrong on our side'}</h2>
        <p className="cl-empty__text">
          {notFound
            ? 'The link may be old, or the page is not available yet.'
            : 'Your money and your cards are safe. Please try again in a moment.'}
        </p>
        <ButtonLink to="/" variant="primary" block>
          Back to home
        </ButtonLink>
      </div>
    </Screen>
  )
}
