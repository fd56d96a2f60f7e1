/// <reference types="vite/client" />
import '@remix-run/node'

declare module '@remix-run/node' {
  // Loaders' and actions' types as single fetch sends them (turbo-stream, not JSON).
  interface Future {
    v3_singleFetch: true
  }
}
