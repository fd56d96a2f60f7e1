import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect, type ReactNode } from 'react'
import { DEFAULT_BRAND_NAME } from '#contract/brand'
import { Analytics } from './components/analytics'
import { errorTitle, GeneralErrorBoundary } from './components/error-boundary'
import { mainTabs, TabBar, useTabBar } from './components/tab-bar'
import { Toaster } from './components/toaster'
import appStyles from './styles/app.css?url'
import { UpstreamError } from './upstream/client.server'
import { loadSessionUser, type SessionUser } from './upstream/profile.server'
import { accessFor } from './utils/access.server'
import { expiredResponse } from './utils/auth.server'
import { getPublicEnv } from './utils/env.server'
import { forgetLastSeen } from './utils/last-seen'
import { useNonce } from './utils/nonce'
import { ErrorReferenceScope } from './utils/request-id'
import { pageTitle, screenFor } from './utils/routes'
import { commitSession, getSession } from './utils/session.server'
import { useDoubleTapGuard, useViewportHeight } from './utils/shell'
import { successMessages } from './utils/shell-messages'
import { DocumentStyles, stylesheetHandle } from './utils/stylesheets'
import { toastOf, type Toast } from './utils/toast.server'

// The shell's stylesheet is not linked: the document carries it inline, as it does the screen's
// (DocumentStyles, decision 058); it stays for every screen after.
export const handle = stylesheetHandle(appStyles)

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
  { rel: 'manifest', href: '/site.webmanifest' },
]

/** The first page after sign-up (or a first Google sign-in) greets the person as new. */
const WELCOME_MESSAGES: readonly string[] = [successMessages.registered, successMessages.googleNew]

/**
 * Who is signed in (the one /v1/user/index call of a page), the flash toast, the public settings.
 * When the api cannot be reached, a page that does not need it still renders, with the
 * catalogue's message as a toast; a login-required page answers 503 with that message (the
 * boundary offers Retry). The api being down never signs anyone out.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  let session = await getSession(request)
  const hadToken = Boolean(session.get('token'))
  let user: SessionUser | null = null
  let dirty = false
  let unreachable: Toast | null = null
  try {
    ;({ user, session, dirty } = await loadSessionUser(request, context, session))
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error // an expiry is a Response: it passes through
    unreachable = toastOf({ type: 'error', message: error.message })
  }
  if (hadToken && !user && accessFor(new URL(request.url).pathname) === 'login') {
    if (unreachable) throw data({ message: unreachable.message }, { status: 503 })
    throw await expiredResponse(request) // the api says this token has no person behind it
  }
  // Reading a flash unsets it; one commit carries both changes.
  const flashed = session.get('toast')
  const headers = new Headers()
  if (dirty || flashed) headers.append('Set-Cookie', await commitSession(session))
  return data(
    {
      user,
      // Still signed in while the api cannot say who it is; not once it said nobody.
      signedIn: Boolean(session.get('token')),
      welcome: Boolean(flashed && WELCOME_MESSAGES.includes(flashed.message)),
      toast: unreachable ?? (flashed ? toastOf(flashed) : null),
      env: getPublicEnv(),
    },
    { headers },
  )
}

/**
 * Remix reloads the root's data only after a form post or a change of query by default. While
 * the api is unreachable (signed in, no user), every navigation asks again, so a login-required
 * screen gets its 503 and Retry, and the person appears again once the api is back.
 */
let rootUnreachable = false
export const shouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate }) => defaultShouldRevalidate || rootUnreachable

export const meta: MetaFunction<typeof loader> = ({ data, location, error }) => {
  const brand = data?.env.brandName ?? DEFAULT_BRAND_NAME
  const screen = screenFor(location.pathname)
  const title = error ? errorTitle(error) : (screen?.title ?? 'Page not found')
  return [
    { title: pageTitle(title, brand) },
    { name: 'description', content: `${brand}: sell gift cards at the rate you were quoted, keep a wallet, withdraw to your bank.` },
    { name: 'theme-color', content: '#0f766e' },
  ]
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const data = useRouteLoaderData<typeof loader>('root')
  const unreachable = Boolean(data?.signedIn && !data.user)
  useEffect(() => {
    rootUnreachable = unreachable
  }, [unreachable])
  // Signed out: the balance kept for the offline page goes (decision 048), whoever signs in next.
  const signedOut = data?.signedIn === false
  useEffect(() => {
    if (signedOut) forgetLastSeen()
  }, [signedOut])
  useViewportHeight()
  useDoubleTapGuard()
  const showTabs = useTabBar()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <DocumentStyles />
        <Links />
      </head>
      <body>
        <Toaster toast={data?.toast ?? null} />
        {children}
        {showTabs ? <TabBar items={mainTabs} inFlow={!data?.signedIn} /> : null}
        <Analytics />
        {/* A new navigation starts at the top (SPEC §2); Back and Forward return where the person was. */}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <ErrorReferenceScope>
      <Document>{children}</Document>
    </ErrorReferenceScope>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
