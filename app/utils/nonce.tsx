import { createContext, useContext } from 'react'

/** The per-response CSP nonce, handed from server.ts through entry.server to <Scripts>. */
const NonceContext = createContext<string>('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
