import type { LinksFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import appStyles from '~/styles/app.css?url'
import { useNonce } from '~/utils/nonce'
import { ErrorReferenceScope } from '~/utils/request-id'
import { useDoubleTapGuard, useViewportHeight } from '~/utils/shell'

// The console's document (decision 052): its own build, so a desk never ships a customer screen
// and a customer page never ranks or loads a desk. The house's tokens and form components come
// from the app's stylesheet, as before the split; each desk adds the console's own (styles/).
export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  useViewportHeight()
  useDoubleTapGuard()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
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

export default function Ops() {
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
