import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { DocumentRequestIdProvider, REFERENCE_ATTRIBUTE } from '~/utils/request-id'

// As the customer's entry (app/entry.client.tsx), without what only the customer's app has: the
// service worker and the install prompt (a staff member never installs the console).
const requestId = document.querySelector(`[${REFERENCE_ATTRIBUTE}]`)?.getAttribute(REFERENCE_ATTRIBUTE) ?? ''

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <DocumentRequestIdProvider value={requestId}>
        <RemixBrowser />
      </DocumentRequestIdProvider>
    </StrictMode>,
  )
})
