/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  serverModuleFormat: 'esm',
  // The server build is imported by server.ts; dependencies stay in node_modules.
  serverBuildPath: 'build/remix/index.js',
  // `npm run dev` rebuilds on changes here too: the contract lives outside app/.
  watchPaths: ['contract'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Vite-era flags, off on purpose with the classic compiler (false silences the warning).
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
}
