import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { listenForInstallPrompt } from './utils/install-prompt'
import { DocumentRequestIdProvider, REFERENCE_ATTRIBUTE } from './utils/request-id'
import { registerServiceWorker } from './utils/service-worker'

listenForInstallPrompt()
registerServiceWorker()

// An error page the server rendered shows its request id; the same id, or the page would not hydrate as it was sent.
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
