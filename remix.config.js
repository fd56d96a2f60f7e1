/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  serverModuleFormat: 'esm',
  // The server build is imported by server.ts; dependencies stay in node_modules.
  serverBuildPath: 'build/remix/index.js',
  // Except simple-icons: bundled, only the marks brand-marks.ts names reach the web process (the
  // package is every brand's path, megabytes held for the life of the process).
  serverDependenciesToBundle: ['simple-icons'],
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
