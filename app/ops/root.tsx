import type { LinksFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import opsStyles from '~/ops/styles/ops.css?url'
import { useNonce } from '~/utils/nonce'
import { ErrorReferenceScope } from '~/utils/request-id'
import { useDoubleTapGuard, useViewportHeight } from '~/utils/shell'

// The console's document (decision 052): its own build, so a desk never ships a customer screen
// and a customer page never ranks or loads a desk. Every page, the sign-in and an error page too,
// links the console's one sheet, which bundles what it uses of the app's (never the customer's
// app.css itself); a desk adds its own (styles/).
export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: opsStyles },
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
