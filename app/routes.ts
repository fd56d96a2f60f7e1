import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'

// The file names in app/routes/ are the URLs, as before the route config (decision 044).
export default flatRoutes({ ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'] }) satisfies RouteConfig
