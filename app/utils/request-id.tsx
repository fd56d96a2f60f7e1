import { useLocation } from '@remix-run/react'
import { createContext, useContext, useState, type ReactNode } from 'react'

/**
 * The id of the request that made this document, for the error page's "Reference" a person can
 * quote to support: entry.server takes it from the load context; entry.client reads it back from
 * the error page it hydrates (REFERENCE_ATTRIBUTE), so both render the same.
 */
const DocumentRequestId = createContext('')
export const DocumentRequestIdProvider = DocumentRequestId.Provider

/** The attribute of the error page's reference (components/error-boundary.tsx) that carries the id to entry.client. */
export const REFERENCE_ATTRIBUTE = 'data-request-id'

const ErrorReference = createContext('')

/**
 * Inside the router (the root Layout): the document's id holds for the document's own location
 * only. After a navigation in the browser the request that failed was another one, whose id this
 * page was never told, so no reference is better than a wrong one.
 */
export function ErrorReferenceScope({ children }: { children: ReactNode }) {
  const id = useContext(DocumentRequestId)
  const { key } = useLocation()
  const [documentKey] = useState(key)
  return <ErrorReference.Provider value={key === documentKey ? id : ''}>{children}</ErrorReference.Provider>
}

/** This document's request id while the page shown is the one the server rendered, else ''. */
export const useErrorReference = () => useContext(ErrorReference)
