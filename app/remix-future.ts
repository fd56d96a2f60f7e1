/**
 * Remix's future flags, every v3 one on (decision 044): the build (vite.config.ts) and the tests'
 * hand-made server builds read them here, so a test never runs with flags the app does not have.
 */
export const REMIX_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_singleFetch: true,
  v3_lazyRouteDiscovery: true,
  v3_routeConfig: true,
} as const
