import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'
import { ignoredRouteFiles } from './route-files'

// The file names in app/routes/ are the URLs, as before the route config (decision 044).
export default flatRoutes({ ignoredRouteFiles }) satisfies RouteConfig
