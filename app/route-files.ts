/** Files in app/routes/ that are not routes (app/routes.ts; the route tests read the same list). */
export const ignoredRouteFiles = ['**/.*', '**/*.test.{ts,tsx}']
